/**
 * One seed of the CEL differential suite: the CRDs of BROKEN_RULES, then seeded CRDs with random
 * rules, each with objects created and updated, every request sent to both servers and every
 * reply pair recorded as a case.
 */
import type { Case } from "./compare.js";
import { outcome } from "./compare.js";
import { crd, GROUP, mutateSpec, randomRules, randomSpec, specSchema } from "./generate.js";
import { Random } from "./random.js";
import { BROKEN_RULES } from "./rules.js";
import type { Reply, Server } from "./servers.js";
import { established } from "./wait.js";

export interface RunOptions {
  readonly crds: number;
  readonly objects: number;
  /** More CRDs are generated (up to 40) until this many cases have run. */
  readonly minCases: number;
}

const NS = "cel-diff";
const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

const both = (servers: readonly Server[], method: string, path: string, body?: unknown) =>
  Promise.all(servers.map((s) => s.call(method, path, body)));

export async function runSeed(servers: readonly Server[], seed: number, opts: RunOptions): Promise<Case[]> {
  const r = new Random(seed);
  const cases: Case[] = [];
  const record = (label: string, request: unknown, [a, b]: Reply[]) => {
    if (a && b) cases.push({ label, request, ref: outcome(a), real: outcome(b) });
  };
  await both(servers, "POST", "/api/v1/namespaces", { metadata: { name: NS } });
  for (const [i, { node, rule }] of BROKEN_RULES.entries()) {
    const body = crd(100 + i, specSchema({ [node]: [rule] }));
    record(`CRD with ${node} rule ${JSON.stringify(rule)}`, body, await both(servers, "POST", CRDS, body));
  }
  const enough = (c: number) => c >= opts.crds && cases.length >= opts.minCases;
  for (let c = 0; c < 40 && !enough(c); c++) {
    const body = crd(c, specSchema(randomRules(r)));
    const made = await both(servers, "POST", CRDS, body);
    record(`CRD things${c}`, body, made);
    if (!made.every((m) => m.status === 201)) continue;
    await Promise.all(servers.map((s) => established(s, `things${c}.${GROUP}`)));
    await runObjects(servers, r, c, opts.objects, record);
    await both(servers, "DELETE", `${CRDS}/things${c}.${GROUP}`);
  }
  return cases;
}

/** Objects of CRD `c`: each created, and when both servers created it, updated with a mutated spec. */
async function runObjects(
  servers: readonly Server[],
  r: Random,
  c: number,
  count: number,
  record: (label: string, request: unknown, replies: Reply[]) => void,
): Promise<void> {
  const base = `/apis/${GROUP}/v1/namespaces/${NS}/things${c}`;
  for (let o = 0; o < count; o++) {
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
}
