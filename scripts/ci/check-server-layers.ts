/**
 * Checks the layering of packages/server/src (docs/server-architecture.md): every import goes to the
 * same layer or a lower one, and no file imports itself back through others (no import cycle, type
 * imports included). Fails with the offending imports listed. Run: `pnpm check:layers`.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../../packages/server/src");

/**
 * Layers from the bottom up; an entry is a folder of src/ (or a folder inside one, such as
 * `endpoints/handlers`, which then belongs to its own layer rather than its parent's) or a file at
 * src/'s top. A layer may import any layer below it and its own; within a layer, folders may import
 * each other as long as no cycle forms.
 */
export const LAYERS: readonly (readonly string[])[] = [
  // Foundation: API machinery types and errors, name and metadata validation, TLS material.
  ["api", "validation", "tls.ts", "kubeconfig.ts"],
  // The wire (auth, negotiation, body decoding, limits) and the MVCC store.
  ["http", "storage"],
  // What a served resource is, table cells, patch formats.
  ["resources", "tables", "patch"],
  // Per-kind knowledge: built-in strategies, custom resources and their CEL rules, OpenAPI schemas.
  ["registry", "crd", "cel", "openapi"],
  // Admission plugins.
  ["admission"],
  // The request stages (upstream's endpoints/handlers): create/update/patch/apply/delete/get/list,
  // managed fields.
  ["endpoints/handlers", "apply", "fieldmanager"],
  // In-process controllers that act through the request stages, and the simulated cluster.
  ["controllers", "cluster"],
  // HTTP endpoints (routing; their handlers are the request stages above), watch serving, the pod
  // runtime and kubelet, fault injection.
  ["endpoints", "watch", "pods", "kubelet", "faults"],
  // Wiring: the server, its CLI and the package's public surface.
  ["server.ts", "bootstrap.ts", "system-objects.ts", "cli.ts", "index.ts", "testing.ts"],
];

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*"(\.{1,2}\/[^"]+)"|\bimport\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

/** src-relative paths of the files `file` imports. */
export function importsOf(file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = (m[1] ?? m[2]) as string;
    out.push(relative(ROOT, normalize(join(dirname(file), spec.replace(/\.js$/, ".ts")))));
  }
  return out;
}

/** The layer of a src-relative path: that of its longest listed folder (or top-level file). */
export function layerOf(path: string): number {
  let best = -1;
  let bestLength = 0;
  LAYERS.forEach((layer, index) => {
    for (const entry of layer) {
      const matches = path === entry || path.startsWith(`${entry}/`);
      if (matches && entry.length > bestLength) [best, bestLength] = [index, entry.length];
    }
  });
  return best;
}

/** Import cycles as lists of files (Tarjan's strongly connected components of size > 1 or self-loops). */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

function main(): number {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(ROOT))
    graph.set(relative(ROOT, file), importsOf(file, readFileSync(file, "utf8")));
  const problems: string[] = [];
  for (const [from, targets] of graph) {
    const fromLayer = layerOf(from);
    if (fromLayer < 0) problems.push(`${from}: not in any layer (add its folder to LAYERS)`);
    for (const to of targets) {
      const toLayer = layerOf(to);
      if (fromLayer >= 0 && toLayer > fromLayer)
        problems.push(
          `${from} -> ${to}: upward import (layer ${fromLayer + 1} imports layer ${toLayer + 1})`,
        );
    }
  }
  for (const cycle of cycles(graph)) problems.push(`import cycle: ${cycle.join(" -> ")}`);
  if (problems.length === 0) {
    console.log(`server layers: ${graph.size} files in ${LAYERS.length} layers, no upward import, no cycle`);
    return 0;
  }
  for (const p of problems) console.error(p);
  console.error(
    `server layers: ${problems.length} problem(s); the layers are in docs/server-architecture.md`,
  );
  return 1;
}

process.exitCode = main();
