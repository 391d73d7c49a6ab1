/**
 * The CEL differential suite: seeded CRDs with random `x-kubernetes-validations`
 * rules, and objects created and updated against them, sent to the embedded
 * server and to a real kube-apiserver 1.37.1 (run.ts); every reply pair is compared
 * (status, causes, message). Prints `N cases, N agree, N disagree` and the seed;
 * exits 1 on a disagreement that no entry of accepted.ts (each naming its entry
 * in docs/divergences.md) explains. Several seeds (`--seeds`) run one after the
 * other, each on servers of its own; a failed seed's replay command is printed.
 *
 *   pnpm diff:cel [--seed N | --seeds N,N,random] [--crds N] [--objects N] [--min-cases N] [--verbose] [--reference-only]
 */
import { parseArgs } from "node:util";
import { parseSeeds, printSeedSummary, type SeedResult } from "../seeds.js";
import { explain } from "./accepted.js";
import { type Case, differs } from "./compare.js";
import { runSeed } from "./run.js";
import { startReal, startReference } from "./servers.js";

const { values } = parseArgs({
  options: {
    seed: { type: "string" },
    seeds: { type: "string" },
    crds: { type: "string", default: "10" },
    objects: { type: "string", default: "30" },
    // More CRDs are generated (up to 40) until this many cases have run.
    "min-cases": { type: "string", default: "300" },
    verbose: { type: "boolean", default: false },
    // Runs the embedded server on both sides: checks the generator without a real apiserver.
    "reference-only": { type: "boolean", default: false },
  },
});

async function one(seed: number): Promise<SeedResult> {
  console.log(`diff:cel: seed ${seed} (replay: ${replay(seed)})`);
  const servers = await Promise.all([
    startReference(),
    values["reference-only"] ? startReference() : startReal(),
  ]);
  try {
    const cases = await runSeed(servers, seed, {
      crds: Number(values.crds),
      objects: Number(values.objects),
      minCases: Number(values["min-cases"]),
    });
    return { seed, failed: report(cases, seed) > 0 };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

function replay(seed: number): string {
  const sizes = ["crds", "objects", "min-cases"] as const;
  const flags = sizes.map((k) => ` --${k} ${values[k]}`).join("");
  return `pnpm diff:cel --seed ${seed}${flags}${values["reference-only"] ? " --reference-only" : ""}`;
}

/** Prints the disagreements and the tally; returns how many no accepted entry explains. */
function report(cases: readonly Case[], seed: number): number {
  let disagree = 0;
  let unexplained = 0;
  for (const c of cases) {
    if (!differs(c.ref, c.real)) continue;
    disagree++;
    const why = explain(c);
    if (!why) unexplained++;
    if (!why || values.verbose) {
      console.log(
        `\n${why ? `accepted (${why})` : "DISAGREE"}: ${c.label}\n  request: ${JSON.stringify(c.request)}`,
      );
      console.log(`  embedded: ${JSON.stringify(c.ref)}\n  real:     ${JSON.stringify(c.real)}`);
    }
  }
  const statuses = new Map<number, number>();
  for (const c of cases) statuses.set(c.real.status, (statuses.get(c.real.status) ?? 0) + 1);
  console.log(`\nreal server's answers: ${[...statuses].map(([k, v]) => `${v}× ${k}`).join(", ")}`);
  console.log(
    `${cases.length} cases, ${cases.length - disagree} agree, ${disagree} disagree (${disagree - unexplained} listed in docs/divergences.md), seed ${seed}`,
  );
  return unexplained;
}

async function main(): Promise<number> {
  const results: SeedResult[] = [];
  for (const seed of parseSeeds(values.seeds, values.seed)) results.push(await one(seed));
  printSeedSummary(results, replay);
  return results.some((r) => r.failed) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(2);
  },
);
