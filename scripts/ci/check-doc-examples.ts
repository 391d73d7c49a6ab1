/**
 * `pnpm docs:check`: every ```ts block of README.md, docs/**\/*.md and packages/*\/README.md is
 * type-checked as its own module against the built workspace packages (the `types` of their
 * package.json exports, what an npm user compiles against), so examples cannot rot. Blocks marked
 * ```ts no-check are skipped. Runs `tsc -b` first (incremental: quick when the build is current).
 *
 * The blocks are written to .cache/doc-examples/ (inside the repository, so `kubesdk` and
 * `@kubesdk/*` resolve through the workspace's node_modules) and errors are reported at their
 * Markdown line.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";

const root = resolve(import.meta.dirname, "..", "..");
const outDir = join(root, ".cache", "doc-examples");

interface Example {
  /** Markdown file, relative to the root. */
  readonly source: string;
  /** 1-based line of the first code line. */
  readonly line: number;
  readonly code: string;
  readonly file: string;
}

function markdownFiles(): string[] {
  const files = ["README.md"];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".md")) files.push(path);
    }
  };
  walk("docs");
  for (const pkg of readdirSync(join(root, "packages")).sort()) {
    try {
      readFileSync(join(root, "packages", pkg, "README.md"));
      files.push(join("packages", pkg, "README.md"));
    } catch {
      // no README
    }
  }
  return files;
}

const fence = /^```(ts|typescript)((?:\s+\S+)*)\s*$/;

function examplesOf(source: string): Example[] {
  const lines = readFileSync(join(root, source), "utf8").split("\n");
  const examples: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = fence.exec(lines[i] as string);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith("```"));
    if (end === -1) throw new Error(`${source}:${i + 1}: unterminated code block`);
    if (!(open[2] ?? "").split(/\s+/).includes("no-check")) {
      const name = `${source.replace(/[^A-Za-z0-9]+/g, "_")}_${i + 2}.ts`;
      examples.push({
        source,
        line: i + 2,
        code: lines.slice(i + 1, end).join("\n"),
        file: join(outDir, name),
      });
    }
    i = end;
  }
  return examples;
}

function writeExamples(examples: readonly Example[]): void {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  // Every block is a module (top-level await, no leaking names between blocks).
  for (const e of examples) writeFileSync(e.file, `${e.code}\nexport {};\n`);
}

function typeCheck(examples: readonly Example[]): string[] {
  const base = ts.readConfigFile(join(root, "tsconfig.base.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(base.config, ts.sys, root);
  const options: ts.CompilerOptions = {
    ...parsed.options,
    noEmit: true,
    declaration: false,
    declarationMap: false,
    sourceMap: false,
    composite: false,
  };
  const program = ts.createProgram(
    examples.map((e) => e.file),
    options,
  );
  const byFile = new Map(examples.map((e) => [resolve(e.file), e]));
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    const example = d.file ? byFile.get(resolve(d.file.fileName)) : undefined;
    if (!d.file || d.start === undefined) return `error TS${d.code}: ${message}`;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    const where = example
      ? `${example.source}:${example.line + line}:${character + 1}`
      : `${relative(root, d.file.fileName)}:${line + 1}:${character + 1}`;
    return `${where}: error TS${d.code}: ${message}`;
  });
}

function main(): number {
  const build = spawnSync("pnpm", ["exec", "tsc", "-b", "tsconfig.build.json"], {
    cwd: root,
    stdio: "inherit",
  });
  if (build.status !== 0) return build.status ?? 1;
  const sources = markdownFiles();
  const examples = sources.flatMap(examplesOf);
  writeExamples(examples);
  const errors = typeCheck(examples);
  for (const e of errors) console.error(e);
  if (errors.length > 0) {
    console.error(
      `\n${errors.length} errors in documentation examples (mark a block \`\`\`ts no-check to skip it)`,
    );
    return 1;
  }
  console.log(`${examples.length} documentation examples from ${sources.length} files type-check`);
  return 0;
}

process.exitCode = main();
