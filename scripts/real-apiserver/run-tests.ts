// Runs vitest suites against ONE real kube-apiserver started for the whole run,
// then stops it whatever the outcome and exits with vitest's exit code.
// Usage: tsx scripts/real-apiserver/run-tests.ts <test-file-glob>... [-- <extra vitest args>]
// (test-real.sh is the usual entry point; it builds the binaries first.)
import { spawn } from "node:child_process";
import { mkdir, rm } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { RealApiserverError, startRealApiserver } from "./start.js";
import { suitesEnvVar } from "./suites-env.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const summaryScript = join(repoRoot, "scripts/ci/vitest-summary.mjs");
const vitestConfig = join(repoRoot, "scripts/real-apiserver/vitest.config.ts");

/**
 * The apiserver runs as clusters run it, watch cache on, because several answers
 * depend on the cache and the suites assert the production ones (e.g. a list at a
 * too-large resourceVersion waits and answers 504 with Retry-After: 1 from the
 * cache, but at once and without Retry-After from etcd). The one exception:
 * PodTemplates skip the cache (`#0` disables it for that resource), so expiry tests
 * that use PodTemplates get a deterministic 410 after compacting etcd (through the
 * cache, lists at a compacted resourceVersion still answer 200). The apiserver's
 * own compaction (every 5 minutes by default) is off, so resourceVersions only
 * expire when a test compacts etcd (KUBESDK_TEST_ETCD_ENDPOINT). Aggregator routing is on so an
 * APIService reaches its Service's endpoint address (the test metrics API): without it the
 * aggregator dials the Service's cluster IP, which nothing routes on this machine.
 */
const uncachedResource = "podtemplates";
const apiserverOptions = {
  watchCache: true,
  extraApiserverFlags: [
    "--etcd-compaction-interval=0",
    `--watch-cache-sizes=${uncachedResource}#0`,
    "--enable-aggregator-routing=true",
  ],
} as const;

function splitArgs(argv: readonly string[]): { suites: string[]; vitestArgs: string[] } {
  const dashDash = argv.indexOf("--");
  const suites = dashDash === -1 ? [...argv] : argv.slice(0, dashDash);
  const vitestArgs = dashDash === -1 ? [] : argv.slice(dashDash + 1);
  if (suites.length === 0) throw new Error("no suites given: pass globs of test files to run");
  return { suites, vitestArgs };
}

/** Runs a command with inherited stdio; resolves with its exit code (signals map to 128+n). */
function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolveCode, reject) => {
    const child = spawn(command, args, { stdio: "inherit", env, cwd: repoRoot });
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      resolveCode(code ?? (signal === null ? 1 : 128 + (signalNumber(signal) ?? 0)));
    });
  });
}

function signalNumber(signal: NodeJS.Signals): number | undefined {
  return ({ SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 } as Record<string, number>)[signal];
}

async function main(): Promise<number> {
  const { suites, vitestArgs } = splitArgs(process.argv.slice(2));
  const startedAt = Date.now();
  // Kept after the run (.cache/ is git-ignored), next to CI's own report.
  const reportPath = join(repoRoot, ".cache/vitest-real-report.json");
  await mkdir(dirname(reportPath), { recursive: true });
  await rm(reportPath, { force: true }); // a crashed run must not be summarised from an old report
  const server = await startRealApiserver(apiserverOptions);
  let vitestCode: number;
  try {
    console.log(
      `real-apiserver: kube-apiserver ready in ${server.timings.apiserverReadyMs} ms at ${server.url} ` +
        `(flags: ${apiserverOptions.extraApiserverFlags.join(" ")})`,
    );
    vitestCode = await run(
      "pnpm",
      [
        "exec",
        "vitest",
        "run",
        `--config=${vitestConfig}`,
        "--reporter=default",
        "--reporter=json",
        `--outputFile=${reportPath}`,
        ...vitestArgs,
      ],
      {
        ...process.env,
        [suitesEnvVar]: suites.join("\n"),
        KUBESDK_TEST_TARGET: "real",
        KUBESDK_TEST_KUBECONFIG: server.kubeconfigPath,
        KUBESDK_TEST_ETCD_ENDPOINT: server.etcdEndpoint,
      },
    );
  } finally {
    await server.stop();
  }
  console.log(
    `real-apiserver: server start + tests + stop took ${Math.round((Date.now() - startedAt) / 1000)} s`,
  );
  // The shared CI summariser prints the plain "LABEL: N passed, N failed, N skipped" line
  // and fails when the report is missing or nothing passed.
  const summaryCode = await run(process.execPath, [summaryScript, reportPath, "real-apiserver"], process.env);
  return vitestCode !== 0 ? vitestCode : summaryCode;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const code = error instanceof RealApiserverError ? ` [${error.code}]` : "";
    console.error(`real-apiserver${code}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
