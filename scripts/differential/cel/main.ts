/**
 * The CEL differential suite: seeded CRDs with random `x-kubernetes-validations`
 * rules, and objects created and updated against them, sent to the embedded
 * server and to a real kube-apiserver 1.37.1; every reply pair is compared
 * (status, causes, message). Prints `N cases, N agree, N disagree` and the seed;
 * exits 1 on a disagreement that no entry of accepted.ts (each naming its entry
 * in docs/divergences.md) explains.
 *
 *   pnpm diff:cel [--seed N] [--crds N] [--objects N] [--min-cases N] [--verbose] [--reference-only]
 */
import { parseArgs } from "node:util";
import { explain } from "./accepted.js";
import { differs, type Outcome, outcome } from "./compare.js";
import { crd, GROUP, mutateSpec, randomRules, randomSpec, specSchema } from "./generate.js";
import { Random } from "./random.js";
import { BROKEN_RULES } from "./rules.js";
import { type Server, startReal, startReference } from "./servers.js";
import { established } from "./wait.js";

export interface Case {
  readonly label: string;
  readonly request: unknown;
  readonly ref: Outcome;
  readonly real: Outcome;
}

const { values } = parseArgs({
  options: {
    seed: { type: "string" },
    crds: { type: "string", default: "10" },
    objects: { type: "string", default: "30" },
    // More CRDs are generated (up to 40) until this many cases have run.
    "min-cases": { type: "string", default: "300" },
    verbose: { type: "boolean", default: false },
    // Runs the embedded server on both sides: checks the generator without a real apiserver.
    "reference-only": { type: "boolean", default: false },
  },
});
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const r = new Random(seed);
const NS = "cel-diff";

async function both(servers: Server[], method: string, path: string, body?: unknown) {
  return Promise.all(servers.map((s) => s.call(method, path, body)));
}

async function main(): Promise<number> {
  const servers = await Promise.all([
    startReference(),
    values["reference-only"] ? startReference() : startReal(),
  ]);
  const cases: Case[] = [];
  const record = (label: string, request: unknown, [a, b]: Awaited<ReturnType<typeof both>>) => {
    if (a && b) cases.push({ label, request, ref: outcome(a), real: outcome(b) });
  };
  try {
    await both(servers, "POST", "/api/v1/namespaces", { metadata: { name: NS } });
    const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    for (const [i, { node, rule }] of BROKEN_RULES.entries()) {
      const body = crd(100 + i, specSchema({ [node]: [rule] }));
      record(`CRD with ${node} rule ${JSON.stringify(rule)}`, body, await both(servers, "POST", crds, body));
    }
    const enough = (c: number) => c >= Number(values.crds) && cases.length >= Number(values["min-cases"]);
    for (let c = 0; c < 40 && !enough(c); c++) {
      const body = crd(c, specSchema(randomRules(r)));
      const made = await both(servers, "POST", crds, body);
      record(`CRD things${c}`, body, made);
      if (!made.every((m) => m.status === 201)) continue;
      await Promise.all(servers.map((s) => established(s, `things${c}.${GROUP}`)));
      const base = `/apis/${GROUP}/v1/namespaces/${NS}/things${c}`;
      for (let o = 0; o < Number(values.objects); o++) {
        const name = `o${o}`;
        const obj = { apiVersion: `${GROUP}/v1`, kind: `Thing${c}`, metadata: { name }, spec: randomSpec(r) };
        const created = await both(servers, "POST", base, obj);
        record(`things${c} create ${name}`, obj, created);
        if (!created.every((x) => x.status === 201)) continue;
        const spec = mutateSpec(r, obj.spec);
        const updated = await Promise.all(
          servers.map((s, k) => s.call("PUT", `${base}/${name}`, { ...created[k]?.json, spec })),
        );
        record(`things${c} update ${name}`, spec, updated);
      }
      await both(servers, "DELETE", `${crds}/things${c}.${GROUP}`);
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
  return report(cases);
}

function report(cases: readonly Case[]): number {
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
  return unexplained > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(2);
  },
);
