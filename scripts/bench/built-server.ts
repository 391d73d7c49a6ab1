/**
 * BENCH_SERVER=built: the reference server's benchmarks run its built JavaScript (dist/, what the
 * published package and the kubesdk-server command run) instead of the TypeScript sources through
 * tsx. tsx transforms with esbuild's keepNames, which wraps every function made at run time in a
 * naming call (an Object.defineProperty); the server makes closures on every request, so the
 * sources cost measurably more CPU per request than the build (docs/performance.md).
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const packagesDir = fileURLToPath(new URL("../../packages/", import.meta.url));
/** The packages the server's build imports at run time. */
const SERVER_PACKAGES = ["models", "transport", "client", "server"];

export class StaleBuildError extends Error {
  override readonly name = "StaleBuildError";
  readonly code = "BENCH_STALE_BUILD";
}

export const builtServerRequested = (): boolean => process.env.BENCH_SERVER === "built";

function newestMtimeMs(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtimeMs(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Refuses a build older than its sources: the benchmark would measure other code than the tree's. */
export function checkBuildIsFresh(): void {
  for (const name of SERVER_PACKAGES) {
    const pkg = join(packagesDir, name);
    let built: number;
    try {
      built = statSync(join(pkg, "dist", ".tsbuildinfo")).mtimeMs;
    } catch {
      throw new StaleBuildError(`packages/${name} is not built: run pnpm build first (BENCH_SERVER=built)`);
    }
    if (newestMtimeMs(join(pkg, "src")) > built)
      throw new StaleBuildError(`packages/${name}/src changed after its build: run pnpm build first`);
  }
}

/** `--flag=value` or `--flag value` options a built run drops: each names the sources or their loader. */
const SOURCE_ONLY_OPTIONS: ReadonlyArray<{ flags: readonly string[]; value: string }> = [
  { flags: ["--conditions", "-C"], value: "source" },
  // The TypeScript loader: its hooks thread and transformed modules are memory the build never has.
  { flags: ["--import"], value: "tsx" },
];

/** How many of execArgv's entries from i on are a source-only option (0, 1 or 2). */
function sourceOnlyOptionLength(execArgv: readonly string[], i: number): number {
  const arg = execArgv[i] as string;
  for (const { flags, value } of SOURCE_ONLY_OPTIONS) {
    if (flags.some((flag) => arg === `${flag}=${value}`)) return 1;
    if (flags.includes(arg) && execArgv[i + 1] === value) return 2;
  }
  return 0;
}

/**
 * The reference server process's node options: for a built run, the sources' resolution condition
 * and the TypeScript loader dropped (the child script is plain JavaScript).
 */
export function serverExecArgv(execArgv: readonly string[]): string[] {
  if (!builtServerRequested()) return [...execArgv];
  checkBuildIsFresh();
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const skip = sourceOnlyOptionLength(execArgv, i);
    if (skip > 0) i += skip - 1;
    else out.push(execArgv[i] as string);
  }
  return out;
}
