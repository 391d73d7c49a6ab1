/**
 * `pnpm examples [name ...]`: type-checks examples/ and runs every example against the embedded API
 * server. By convention (so examples added later join without a list to edit):
 *
 * - examples/<name>/main.ts: a program. A fresh `startServer()` per example; its kubeconfig is written
 *   to a temporary file passed as KUBECONFIG; the program must exit 0 within the time limit.
 * - examples/<name>/*.test.ts: a vitest suite (examples/vitest.config.ts); it starts its own server.
 *
 * Options: --no-typecheck skips `tsc -p examples/tsconfig.json`.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { startServer } from "@kubesdk/server";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const examplesDir = join(repoRoot, "examples");
const timeLimitMs = 120_000;

interface Example {
  readonly name: string;
  readonly kind: "program" | "tests";
}

function findExamples(only: readonly string[]): Example[] {
  const found: Example[] = [];
  for (const entry of readdirSync(examplesDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || (only.length > 0 && !only.includes(entry.name))) continue;
    const files = readdirSync(join(examplesDir, entry.name));
    if (files.includes("main.ts")) found.push({ name: entry.name, kind: "program" });
    if (files.some((f) => f.endsWith(".test.ts"))) found.push({ name: entry.name, kind: "tests" });
  }
  const missing = only.filter((n) => !found.some((e) => e.name === n));
  if (missing.length > 0) throw new Error(`no example named ${missing.join(", ")} in examples/`);
  return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Runs a command with inherited output; resolves to its exit code. An example is killed after the
 * time limit (an operator that never stops is a failure); the type check is not, since its time only
 * says how loaded the machine is.
 */
function run(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  limitMs: number | null = timeLimitMs,
): Promise<number> {
  return new Promise((resolveCode, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, env, stdio: "inherit" });
    let timedOut = false;
    const timer =
      limitMs === null
        ? undefined
        : setTimeout(() => {
            console.error(`examples: ${args.join(" ")} ran longer than ${limitMs / 1000}s; stopping it`);
            timedOut = true;
            child.kill("SIGTERM");
          }, limitMs);
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      // A program stopped for running too long failed, whatever it exits with on SIGTERM.
      resolveCode(timedOut ? 1 : (code ?? (signal ? 1 : 0)));
    });
  });
}

const bin = (name: string) => join(repoRoot, "node_modules", ".bin", name);

async function runProgram(name: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), `kubesdk-example-${name}-`));
  const kubeconfigPath = join(dir, "kubeconfig");
  const server = await startServer({ kubeconfigPath });
  try {
    const env = { ...process.env, KUBECONFIG: kubeconfigPath };
    const main = join(examplesDir, name, "main.ts");
    // An example that runs until stopped (an operator) lists the arguments of a bounded run here.
    const argsFile = join(examplesDir, name, "ci-args");
    const extra = existsSync(argsFile) ? readFileSync(argsFile, "utf8").trim().split(/\s+/) : [];
    return await run(process.execPath, ["--conditions=source", "--import", "tsx", main, ...extra], env);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function runTests(name: string): Promise<number> {
  const config = join(examplesDir, "vitest.config.ts");
  return run(bin("vitest"), ["run", "--config", config, name], process.env);
}

async function main(argv: readonly string[]): Promise<number> {
  const typecheck = !argv.includes("--no-typecheck");
  const examples = findExamples(argv.filter((a) => !a.startsWith("--")));
  const results: string[] = [];
  let failed = 0;
  if (typecheck && existsSync(join(examplesDir, "tsconfig.json"))) {
    const code = await run(bin("tsc"), ["-p", join(examplesDir, "tsconfig.json")], process.env, null);
    results.push(`${code === 0 ? "ok  " : "FAIL"} tsc -p examples/tsconfig.json`);
    if (code !== 0) failed++;
  }
  for (const example of examples) {
    console.log(`\n=== examples/${example.name} (${example.kind}) ===`);
    const started = performance.now();
    const code = example.kind === "program" ? await runProgram(example.name) : await runTests(example.name);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    results.push(`${code === 0 ? "ok  " : "FAIL"} ${example.name} (${example.kind}, ${seconds}s)`);
    if (code !== 0) failed++;
  }
  console.log(`\nexamples: ${results.length - failed} passed, ${failed} failed`);
  for (const line of results) console.log(`  ${line}`);
  return failed === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
