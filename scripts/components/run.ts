/**
 * test:components: the real kube-controller-manager and kube-scheduler against
 * the reference server and against a real kube-apiserver, the same scenarios
 * on both; passes when every scenario passes on both and they observe the same.
 *
 * Usage: run.ts <bin-dir> [reference|real|both]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { type Cluster, NODES, startCluster, type TargetKind } from "./cluster.js";
import { RemoteKubelets } from "./remote-kubelets.js";
import { type Observation, SCENARIOS_A, type Scenario } from "./scenarios.js";
import { createCronJob, SCENARIOS_B } from "./scenarios-workloads.js";

interface Outcome {
  readonly name: string;
  readonly ok: boolean;
  readonly ms: number;
  readonly observed?: Observation;
  readonly error?: string;
}

interface TargetRun {
  readonly kind: TargetKind;
  readonly startup: { apiserverMs: number; componentsMs: number };
  readonly outcomes: Outcome[];
  readonly totalMs: number;
  readonly runDir: string;
}

const SCENARIOS: readonly Scenario[] = [...SCENARIOS_A, ...SCENARIOS_B];

async function runScenario(c: Cluster, s: Scenario, kubelet: RemoteKubelets | undefined): Promise<Outcome> {
  const t0 = Date.now();
  try {
    const observed = await s.run(c);
    return { name: s.name, ok: true, ms: Date.now() - t0, observed };
  } catch (e) {
    const extra =
      kubelet && kubelet.errors.length > 0 ? ` (kubelet: ${kubelet.errors.slice(-3).join("; ")})` : "";
    return { name: s.name, ok: false, ms: Date.now() - t0, error: `${(e as Error).message}${extra}` };
  }
}

async function runTarget(kind: TargetKind, binDir: string): Promise<TargetRun> {
  const t0 = Date.now();
  const cluster = await startCluster(kind, binDir);
  // The reference server runs its simulated kubelets itself; a real kube-apiserver gets the same
  // kubelets over HTTP.
  const kubelet = kind === "real" ? new RemoteKubelets(cluster) : undefined;
  const outcomes: Outcome[] = [];
  try {
    await kubelet?.start(NODES);
    await createCronJob(cluster);
    for (const s of SCENARIOS) {
      const o = await runScenario(cluster, s, kubelet);
      console.log(
        `components[${kind}]: ${o.ok ? "ok  " : "FAIL"} ${s.name} (${(o.ms / 1000).toFixed(1)}s)${o.error ? `: ${o.error}` : ""}`,
      );
      outcomes.push(o);
    }
  } finally {
    kubelet?.stop();
    await cluster.stop();
  }
  return { kind, startup: cluster.timings, outcomes, totalMs: Date.now() - t0, runDir: cluster.runDir };
}

function compare(runs: readonly TargetRun[]): string[] {
  const problems: string[] = [];
  for (const r of runs)
    for (const o of r.outcomes) if (!o.ok) problems.push(`${r.kind}: ${o.name}: ${o.error}`);
  const [a, b] = runs;
  if (a && b)
    for (const oa of a.outcomes) {
      const ob = b.outcomes.find((o) => o.name === oa.name);
      if (oa.ok && ob?.ok && !isDeepStrictEqual(oa.observed, ob.observed))
        problems.push(
          `${oa.name}: ${a.kind} observed ${JSON.stringify(oa.observed)} but ${b.kind} ${JSON.stringify(ob.observed)}`,
        );
    }
  return problems;
}

async function main(): Promise<void> {
  const [binDir, which = "both"] = process.argv.slice(2);
  if (!binDir || !["reference", "real", "both"].includes(which)) {
    console.error("usage: run.ts <bin-dir> [reference|real|both]");
    process.exit(2);
  }
  const kinds: TargetKind[] = which === "both" ? ["reference", "real"] : [which as TargetKind];
  const runs: TargetRun[] = [];
  for (const kind of kinds) runs.push(await runTarget(kind, binDir));
  const problems = compare(runs);
  mkdirSync(".cache", { recursive: true });
  writeFileSync(".cache/components-report.json", `${JSON.stringify({ runs, problems }, null, 2)}\n`);
  for (const r of runs)
    console.log(
      `components[${r.kind}]: apiserver ready in ${(r.startup.apiserverMs / 1000).toFixed(1)}s, ` +
        `${r.outcomes.filter((o) => o.ok).length}/${r.outcomes.length} scenarios ok, ${(r.totalMs / 1000).toFixed(0)}s in all (logs: ${r.runDir})`,
    );
  for (const p of problems) console.log(`components: PROBLEM ${p}`);
  console.log(
    `components: ${problems.length === 0 ? "all scenarios agree" : `${problems.length} problem(s)`}; report in .cache/components-report.json`,
  );
  process.exit(problems.length === 0 ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
