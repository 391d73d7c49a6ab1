/**
 * test:conformance: upstream's [Conformance] e2e tests (selection.txt) against the embedded
 * server, or with --real against kube-apiserver (the reference), each with the real
 * kube-controller-manager and kube-scheduler and the reference server's simulated kubelets. One
 * e2e.test process per test, several at a time; [Serial] tests after the others, one at a time.
 *
 * Usage: run.ts <e2e.test> <component-bin-dir> [--real] [--kubectl PATH] [--parallel N]
 *               [--timeout SECONDS] [--focus REGEXP] [--skip REGEXP] [--record] [--check]
 *   --kubectl the kubectl the sig-cli tests run (build.sh builds one at the pinned release;
 *             default: the one on PATH)
 *   --record  write the run to docs/conformance/<target>.json and regenerate docs/conformance.md
 *             (with --focus or --skip: replace just those tests' outcomes in the recorded run)
 *   --check   fail when a test kube-apiserver passed in the recorded reference run does not pass
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { NODES, startCluster } from "../components/cluster.js";
import { RemoteKubelets } from "../components/remote-kubelets.js";
import {
  longestFirst,
  type RunRecord,
  readRecord,
  regressions,
  type Target,
  updateTable,
  writeRecord,
} from "./record.js";
import { runOne, type TestOutcome } from "./run-one.js";
import { readSelection, type SelectedTest } from "./selection.js";

const KUBERNETES = "v1.37.1";

function parseCli() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      real: { type: "boolean", default: false },
      kubectl: { type: "string", default: "kubectl" },
      parallel: { type: "string", default: "3" },
      timeout: { type: "string", default: "600" },
      focus: { type: "string" },
      skip: { type: "string" },
      record: { type: "boolean", default: false },
      check: { type: "boolean", default: false },
    },
  });
  const [e2eBinary, binDir] = positionals;
  const parallel = Number(values.parallel);
  const timeout = Number(values.timeout);
  if (!e2eBinary || !binDir || !(parallel >= 1) || !(timeout > 0)) {
    console.error("usage: run.ts <e2e.test> <component-bin-dir> [--real] [--parallel N] [--timeout S] ...");
    process.exit(2);
  }
  const target: Target = values.real ? "real" : "embedded";
  const focus = values.focus ? new RegExp(values.focus) : undefined;
  const skip = values.skip ? new RegExp(values.skip) : undefined;
  return {
    e2eBinary,
    binDir,
    kubectl: values.kubectl,
    target,
    parallel,
    timeout,
    focus,
    skip,
    record: values.record,
    check: values.check,
  };
}

/** Runs `tests` with at most `parallel` at a time, reporting each outcome as it arrives. */
async function pool(
  tests: readonly SelectedTest[],
  parallel: number,
  runTest: (t: SelectedTest) => Promise<TestOutcome>,
): Promise<TestOutcome[]> {
  const queue = [...tests];
  const outcomes: TestOutcome[] = [];
  const worker = async () => {
    for (let t = queue.shift(); t; t = queue.shift()) outcomes.push(await runTest(t));
  };
  await Promise.all(Array.from({ length: Math.min(parallel, tests.length) }, worker));
  return outcomes;
}

function printOutcome(o: TestOutcome, done: number, total: number): void {
  const tag = o.result === "pass" ? "ok  " : o.result.toUpperCase();
  const why = o.firstFailure ? `\n      ${o.firstFailure}` : "";
  console.log(`conformance: [${done}/${total}] ${tag} ${o.name} (${o.seconds}s)${why}`);
}

/**
 * A focused rerun replaces its tests' outcomes in the recorded full run (whose date, parallelism and
 * wall time stay), so fixing a few tests does not need the whole run again.
 */
function mergedInto(full: RunRecord | undefined, rerun: RunRecord): RunRecord {
  if (!full) return rerun;
  const fresh = new Map(rerun.tests.map((t) => [t.name, t]));
  const tests = full.tests.map((t) => fresh.get(t.name) ?? t);
  for (const t of rerun.tests) if (!full.tests.some((f) => f.name === t.name)) tests.push(t);
  return { ...full, tests };
}

async function main(): Promise<void> {
  const cli = parseCli();
  const selected = readSelection().filter(
    (t) => t.run && (!cli.focus || cli.focus.test(t.name)) && !cli.skip?.test(t.name),
  );
  const logDir = mkdtempSync(join(tmpdir(), `kubesdk-conformance-${cli.target}-`));
  mkdirSync(logDir, { recursive: true });
  const t0 = Date.now();
  const cluster = await startCluster(cli.target === "real" ? "real" : "reference", cli.binDir);
  // The embedded server runs its simulated kubelets itself; kube-apiserver gets the same kubelets over HTTP.
  const kubelet = cli.target === "real" ? new RemoteKubelets(cluster) : undefined;
  let done = 0;
  const runTest = async (t: SelectedTest) => {
    // [Slow] tests wait on schedules (CronJob) or compaction: twice the bound.
    const timeoutSeconds = t.name.includes("[Slow]") ? cli.timeout * 2 : cli.timeout;
    const o = await runOne(t.name, {
      e2eBinary: cli.e2eBinary,
      kubectlPath: cli.kubectl,
      kubeconfigPath: cluster.kubeconfigPath,
      logDir,
      timeoutSeconds,
    });
    printOutcome(o, ++done, selected.length);
    return o;
  };
  let outcomes: TestOutcome[];
  try {
    await kubelet?.start(NODES);
    console.log(
      `conformance: ${selected.length} tests against ${cli.target}, ${cli.parallel} at a time; logs in ${logDir}`,
    );
    outcomes = await pool(
      longestFirst(
        selected.filter((t) => !t.serial),
        readRecord(cli.target),
      ),
      cli.parallel,
      runTest,
    );
    outcomes.push(
      ...(await pool(
        selected.filter((t) => t.serial),
        1,
        runTest,
      )),
    );
  } finally {
    kubelet?.stop();
    await cluster.stop();
  }
  const order = new Map(selected.map((t, i) => [t.name, i]));
  outcomes.sort((a, b) => (order.get(a.name) ?? 0) - (order.get(b.name) ?? 0));
  const record: RunRecord = {
    target: cli.target,
    kubernetes: KUBERNETES,
    date: new Date().toISOString().slice(0, 10),
    parallel: cli.parallel,
    seconds: Math.round((Date.now() - t0) / 1000),
    tests: outcomes,
  };
  const passed = outcomes.filter((o) => o.result === "pass").length;
  console.log(
    `conformance[${cli.target}]: ${passed}/${outcomes.length} passed in ${record.seconds}s (logs: ${logDir})`,
  );
  if (cli.record) {
    const selection = readSelection();
    writeRecord(cli.focus || cli.skip ? mergedInto(readRecord(cli.target), record) : record, selection);
    updateTable(selection);
    console.log("conformance: recorded in docs/conformance/ and docs/conformance.md");
  }
  if (cli.check) {
    const reference = readRecord("real");
    if (!reference) throw new Error("--check: no recorded reference run (docs/conformance/real.json)");
    const lost = regressions(record, reference);
    for (const name of lost) console.log(`conformance: REGRESSION (kube-apiserver passes it) ${name}`);
    process.exit(lost.length === 0 ? 0 : 1);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
