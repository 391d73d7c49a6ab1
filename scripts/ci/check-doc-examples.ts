/**
 * `pnpm docs:check`: every ```ts block of README.md, docs/**\/*.md and packages/*\/README.md is
 * type-checked against the built workspace packages (the `types` of their package.json exports,
 * what an npm user compiles against), so examples cannot rot. Runs `tsc -b` first (incremental:
 * quick when the build is current).
 *
 * Words after `ts` on the opening fence (GitHub shows none of them):
 *
 * - none: the block is a module of its own, with its own imports and setup;
 * - `group=NAME`: every block of the file with the same NAME is checked as one module, the blocks
 *   concatenated in document order. A guide that builds on its first block's `kube` marks all its
 *   blocks `group=guide`; two parallel stories in one file (client-node and kubesdk side by side)
 *   use two names. A block of a group must not redeclare a name an earlier block of it declared;
 * - `no-check`: skipped. Only for blocks that are deliberately not checkable TypeScript;
 * - `from=PATH#REGION`: the block must equal that region of a repository file (`// #region REGION`
 *   … `// #endregion REGION`), so a guide can quote a file CI runs (scripts/ci/doc-regions.ts). It is
 *   type-checked as the other words say.
 *
 * Other packages the examples import (`@kubernetes/client-node` in the migration guide) resolve
 * from the root devDependencies.
 *
 * The blocks are written to .cache/doc-examples/ (inside the repository, so `kubesdk` and
 * `@kubesdk/*` resolve through the workspace's node_modules) and errors are reported at their
 * Markdown line.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";
import { checkQuotedRegion } from "./doc-regions.js";

const root = resolve(import.meta.dirname, "..", "..");
const outDir = join(root, ".cache", "doc-examples");

interface Block {
  /** Markdown file, relative to the root. */
  readonly source: string;
  /** 1-based line of the first code line. */
  readonly line: number;
  readonly code: string;
  /** The `group=` name, or undefined for a block checked on its own. */
  readonly group: string | undefined;
  /** The `from=` word, when the block quotes a region of a file. */
  readonly from: string | undefined;
}

/** One module handed to the compiler: a block, or the blocks of one group. */
interface Example {
  readonly source: string;
  readonly file: string;
  readonly blocks: readonly Block[];
  readonly code: string;
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

function blocksOf(source: string): Block[] {
  const lines = readFileSync(join(root, source), "utf8").split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = fence.exec(lines[i] as string);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith("```"));
    if (end === -1) throw new Error(`${source}:${i + 1}: unterminated code block`);
    const words = (open[2] ?? "").split(/\s+/).filter((w) => w !== "");
    for (const w of words) {
      if (w !== "no-check" && !/^(group=[\w-]+|from=\S+)$/.test(w)) {
        throw new Error(
          `${source}:${i + 1}: unknown fence word "${w}" (no-check, group=NAME or from=PATH#REGION)`,
        );
      }
    }
    if (!words.includes("no-check")) {
      const group = words.find((w) => w.startsWith("group="))?.slice("group=".length);
      const from = words.find((w) => w.startsWith("from="));
      blocks.push({ source, line: i + 2, code: lines.slice(i + 1, end).join("\n"), group, from });
    }
    i = end;
  }
  return blocks;
}

/** The modules of one Markdown file: one per ungrouped block, one per group. */
function examplesOf(source: string): Example[] {
  const modules = new Map<string, Block[]>();
  for (const b of blocksOf(source)) {
    const key = b.group === undefined ? `${b.line}` : `group-${b.group}`;
    modules.set(key, [...(modules.get(key) ?? []), b]);
  }
  const prefix = source.replace(/[^A-Za-z0-9]+/g, "_");
  return [...modules].map(([key, blocks]) => ({
    source,
    file: join(outDir, `${prefix}_${key.replace(/[^A-Za-z0-9]+/g, "_")}.ts`),
    blocks,
    // Every module ends in `export {}`: top-level await, no names leaking between modules.
    code: `${blocks.map((b) => b.code).join("\n")}\nexport {};\n`,
  }));
}

/** Where a 0-based line of an example's module is in the Markdown. */
function markdownLine(example: Example, line: number): number {
  let first = 0;
  for (const b of example.blocks) {
    const count = b.code.split("\n").length;
    if (line < first + count) return b.line + line - first;
    first += count;
  }
  return (example.blocks.at(-1)?.line ?? 0) + line - first;
}

function writeExamples(examples: readonly Example[]): void {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  for (const e of examples) writeFileSync(e.file, e.code);
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
      ? `${example.source}:${markdownLine(example, line)}:${character + 1}`
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
  const quoted = examples.flatMap((e) => e.blocks).filter((b) => b.from !== undefined);
  const errors = [
    ...quoted.flatMap((b) => checkQuotedRegion(root, `${b.source}:${b.line}`, b.from as string, b.code)),
    ...typeCheck(examples),
  ];
  for (const e of errors) console.error(e);
  if (errors.length > 0) {
    console.error(
      `\n${errors.length} errors in documentation examples (fence words: see scripts/ci/check-doc-examples.ts)`,
    );
    return 1;
  }
  const blocks = examples.reduce((n, e) => n + e.blocks.length, 0);
  console.log(
    `${blocks} documentation examples (${examples.length} modules) from ${sources.length} files type-check`,
  );
  return 0;
}

process.exitCode = main();
