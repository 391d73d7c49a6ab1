/**
 * Bundle sizes in the pack check: the "list pods" programs of test/pack/bundle bundled from the
 * installed tarballs with esbuild (minified, platform node), as a user's bundler would, next to the
 * same program written with @kubernetes/client-node. Fails when the JSON-only kubesdk bundle is larger
 * (raw) than client-node's; gzip sizes are reported.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Step } from "./pack-project.js";

interface Esbuild {
  build(options: Record<string, unknown>): Promise<unknown>;
}

/** esbuild from the workspace (a dependency of tsx), standing in for any bundler. */
export async function loadEsbuild(): Promise<Esbuild> {
  const fromTsx = createRequire(createRequire(import.meta.url).resolve("tsx"));
  return (await import(fromTsx.resolve("esbuild"))) as Esbuild;
}

/** Copies the bundle programs into the project (they are bundled, not type-checked per resolution). */
export function copyBundlePrograms(programsDir: string, projectDir: string): void {
  const from = join(programsDir, "bundle");
  const to = join(projectDir, "bundle-src");
  mkdirSync(to, { recursive: true });
  for (const file of readdirSync(from))
    if (file.endsWith(".ts")) copyFileSync(join(from, file), join(to, file));
}

interface Size {
  readonly raw: number;
  readonly gzip: number;
}

async function sizeOf(esbuild: Esbuild, dir: string, program: string): Promise<Size> {
  const outfile = join(dir, "bundle-size", program.replace(/\.ts$/, ".mjs"));
  await esbuild.build({
    absWorkingDir: dir,
    entryPoints: [join("bundle-src", program)],
    outfile,
    bundle: true,
    minify: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "silent",
  });
  const bytes = readFileSync(outfile);
  return { raw: bytes.length, gzip: gzipSync(bytes).length };
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(0)} kB`.padStart(9);

/** Bundles each program, prints the table, and checks the JSON-only bundle against client-node's. */
export async function bundleSizeStep(dir: string): Promise<Step> {
  const t0 = performance.now();
  const name = "bundle size of list-pods (esbuild, minified, platform node)";
  try {
    const esbuild = await loadEsbuild();
    const programs = ["list-pods.ts", "list-pods-protobuf.ts", "list-pods-client-node.ts"];
    const sizes = new Map<string, Size>();
    for (const program of programs) sizes.set(program, await sizeOf(esbuild, dir, program));
    const lines = ["program                          raw       gzip"];
    for (const [program, size] of sizes) lines.push(`${program.padEnd(28)}${kb(size.raw)}  ${kb(size.gzip)}`);
    console.log(`\n${lines.join("\n")}`);
    const ours = sizes.get("list-pods.ts") as Size;
    const theirs = sizes.get("list-pods-client-node.ts") as Size;
    const ok = ours.raw <= theirs.raw;
    const output = ok
      ? ""
      : `kubesdk's JSON-only bundle (${ours.raw} bytes) is larger than client-node's (${theirs.raw} bytes)`;
    return { name, ok, ms: performance.now() - t0, output };
  } catch (error) {
    return { name, ok: false, ms: performance.now() - t0, output: String(error) };
  }
}
