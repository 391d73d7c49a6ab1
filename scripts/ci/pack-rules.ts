/**
 * The publishing rules of docs/packaging.md, checked on a package's manifest and on the files its
 * tarball holds. Each function returns the broken rules as messages (empty: all hold).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly type?: string;
  readonly license?: string;
  readonly main?: string;
  readonly types?: string;
  readonly exports?: unknown;
  readonly publishConfig?: { readonly exports?: unknown; readonly [key: string]: unknown };
  readonly files?: readonly string[];
  readonly sideEffects?: boolean | readonly string[];
  readonly engines?: { readonly node?: string };
  readonly bin?: string | Record<string, string>;
}

/** Every string target of an `exports` value, with the condition path that leads to it. */
export function exportTargets(value: unknown, path = ""): { path: string; target: string }[] {
  if (typeof value === "string") return [{ path, target: value }];
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    exportTargets(inner, path ? `${path} > ${key}` : key),
  );
}

function hasCondition(value: unknown, condition: string): boolean {
  return exportTargets(value).some((t) => t.path.split(" > ").includes(condition));
}

/** Rules on the workspace package.json (before packing). */
export function checkManifest(dir: string, pkg: Manifest): string[] {
  const problems: string[] = [];
  const need = (ok: unknown, rule: string) => {
    if (!ok) problems.push(rule);
  };
  need(existsSync(join(dir, "LICENSE")), "LICENSE file in the package directory");
  need(existsSync(join(dir, "README.md")), "README.md in the package directory");
  need(pkg.license === "Apache-2.0", 'license "Apache-2.0"');
  need(pkg.type === "module", 'type "module"');
  need(pkg.engines?.node, "engines.node");
  need(pkg.sideEffects !== undefined, "sideEffects stated (false unless a module has import-time effects)");
  need(pkg.main?.startsWith("./dist/"), "main pointing into ./dist (moduleResolution node10)");
  need(pkg.types?.endsWith(".d.ts"), "types pointing at a .d.ts (moduleResolution node10)");
  need(pkg.files?.includes("!dist/.tsbuildinfo"), 'files excluding "!dist/.tsbuildinfo"');
  need(pkg.publishConfig?.exports, "publishConfig.exports (the exports that get published)");
  need(!hasCondition(pkg.publishConfig?.exports, "source"), 'no "source" condition in publishConfig.exports');
  return problems;
}

function walk(root: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) out.push(...walk(path));
    else out.push(path);
  }
  return out;
}

/** Source maps whose sources (or whose own map link) point at files the tarball lacks. */
function brokenSourceMaps(root: string, files: readonly string[]): string[] {
  const problems: string[] = [];
  for (const file of files) {
    if (file.endsWith(".js") || file.endsWith(".d.ts")) {
      const link = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(file, "utf8"));
      if (link?.[1] && !link[1].startsWith("data:") && !existsSync(resolve(dirname(file), link[1]))) {
        problems.push(`${relative(root, file)} links a missing map ${link[1]}`);
      }
    }
    if (!file.endsWith(".map")) continue;
    const map = JSON.parse(readFileSync(file, "utf8")) as {
      sources?: string[];
      sourceRoot?: string;
      sourcesContent?: (string | null)[];
    };
    for (const [i, source] of (map.sources ?? []).entries()) {
      if (typeof map.sourcesContent?.[i] === "string") continue;
      const target = resolve(dirname(file), map.sourceRoot ?? "", source);
      if (!existsSync(target)) problems.push(`${relative(root, file)} maps to missing ${source}`);
    }
  }
  return problems.slice(0, 5);
}

/** Rules on the unpacked tarball (`root` is its package/ directory). */
export function checkTarball(root: string): string[] {
  const problems: string[] = [];
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Manifest;
  const files = walk(root);
  const rel = files.map((f) => relative(root, f));
  for (const name of ["LICENSE", "README.md", "package.json"]) {
    if (!rel.includes(name)) problems.push(`tarball lacks ${name}`);
  }
  for (const f of rel) {
    if (f.endsWith(".tsbuildinfo") || /(^|\/)test\/|\.test\.[cm]?[jt]s$/.test(f)) {
      problems.push(`build or test leftover in the tarball: ${f}`);
    }
  }
  if (hasCondition(pkg.exports, "source")) problems.push('published exports keep the "source" condition');
  const targets = [
    ...exportTargets(pkg.exports).map((t) => t.target),
    ...(pkg.main ? [pkg.main] : []),
    ...(pkg.types ? [pkg.types] : []),
    ...(typeof pkg.bin === "string" ? [pkg.bin] : Object.values(pkg.bin ?? {})),
  ];
  for (const target of targets) {
    if (!existsSync(join(root, target))) problems.push(`${target} is referenced but not in the tarball`);
  }
  problems.push(...brokenSourceMaps(root, files));
  return problems;
}

/** Bytes and file count of an unpacked tree. */
export function treeSize(root: string): { bytes: number; files: number } {
  const files = walk(root);
  return { bytes: files.reduce((n, f) => n + statSync(f).size, 0), files: files.length };
}
