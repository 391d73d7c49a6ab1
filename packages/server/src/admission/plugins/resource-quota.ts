/**
 * ResourceQuota, upstream's last admission plugin: a write that would take a namespace past a
 * ResourceQuota's hard limits is refused (403 Forbidden, upstream's wording), and an admitted one is
 * charged to every quota it matches by updating the quota's `status.used` before the object is
 * stored, as upstream's plugin does through the API. Usage is recomputed from the stored objects by
 * the quota controller (kube-controller-manager's, or the server's own in controllers/), which also
 * returns what deletes free.
 *
 * A quota is consulted only once its status says what is hard and what is used; until then a write
 * it would limit is refused with "status unknown for quota". Dry runs are checked, never charged.
 * The check and the charge run in the same turn of the event loop as the commit that follows, so
 * concurrent writes cannot both take the last unit (upstream serialises them per namespace).
 */
import type { StoredObject } from "../../storage/mvcc.js";
import type { AdmissionAttributes } from "../attributes.js";
import type { AdmissionContext } from "../context.js";
import { type AdmissionPlugin, forbidden } from "../plugin.js";
import {
  addLists,
  compareAmounts,
  mask,
  prettyPrint,
  type ResourceList,
  subtractNonNegative,
  withoutZeros,
} from "../quota/amounts.js";
import { evaluatorFor, type QuotaEvaluator, type ScopeSelector } from "../quota/evaluators.js";

type Json = Record<string, unknown>;

const QUOTAS = "/resourcequotas";
const record = (v: unknown): Json =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {};
const resourceList = (v: unknown): ResourceList =>
  Object.fromEntries(Object.entries(record(v)).map(([k, x]) => [k, String(x)]));

/** The quota's scopes and scope selector as one list of selectors (upstream's getScopeSelectorsFromQuota). */
export function scopeSelectorsOf(quota: Json): ScopeSelector[] {
  const spec = record(quota.spec);
  const scopes = (Array.isArray(spec.scopes) ? spec.scopes : []).map((s) => ({
    scopeName: String(s),
    operator: "Exists",
  }));
  const expressions = record(spec.scopeSelector).matchExpressions;
  const selected = (Array.isArray(expressions) ? expressions : []).map((e) => {
    const x = record(e);
    return {
      scopeName: String(x.scopeName ?? ""),
      operator: String(x.operator ?? ""),
      values: Array.isArray(x.values) ? x.values.map(String) : [],
    };
  });
  return [...scopes, ...selected];
}

/** Whether a quota limits this object: it names a resource the evaluator measures and every scope matches. */
export function quotaMatches(quota: Json, hard: ResourceList, e: QuotaEvaluator, obj: Json): boolean {
  if (e.matching(Object.keys(hard)).length === 0) return false;
  return scopeSelectorsOf(quota).every((s) => e.matchesScope(s, obj));
}

interface Charge {
  readonly quota: StoredObject;
  readonly used: ResourceList;
}

/** The charges a request makes, or the refusal; checks every quota before charging any. */
function charges(a: AdmissionAttributes, e: QuotaEvaluator, quotas: StoredObject[], now: number): Charge[] {
  const obj = a.object as Json;
  const relevant: { quota: StoredObject; hard: ResourceList; used: ResourceList; names: string[] }[] = [];
  for (const quota of quotas) {
    const status = record(quota.status);
    const hard = resourceList(status.hard);
    if (!quotaMatches(quota, hard, e, obj)) continue;
    const name = String(quota.metadata.name);
    const names = e.matching(Object.keys(hard));
    const why = e.constraints(names, obj);
    if (why !== undefined) throw forbidden(a, `failed quota: ${name}: ${why}`);
    const used = resourceList(status.used);
    if (names.some((n) => used[n] === undefined))
      throw forbidden(a, `status unknown for quota: ${name}, resources: ${[...names].sort().join(",")}`);
    relevant.push({ quota, hard, used, names });
  }
  if (relevant.length === 0) return [];
  const usage = e.usage(obj, now);
  const negative = Object.keys(usage).filter((k) => compareAmounts(usage[k], "0") < 0);
  if (negative.length > 0)
    throw forbidden(a, `quota usage is negative for resource(s): ${negative.sort().join(",")}`);
  const previous = a.operation === "UPDATE" && a.oldObject ? e.usage(a.oldObject, now) : undefined;
  const out: Charge[] = [];
  for (const { quota, hard, used, names } of relevant) {
    const matchedBefore = previous !== undefined && quotaMatches(quota, hard, e, a.oldObject as Json);
    const delta = withoutZeros(mask(matchedBefore ? subtractNonNegative(usage, previous) : usage, names));
    if (Object.keys(delta).length === 0) continue;
    const next = addLists(used, delta);
    if (a.subresource !== "status") {
      const exceeded = Object.keys(delta).filter((k) => compareAmounts(next[k], hard[k]) > 0);
      if (exceeded.length > 0)
        throw forbidden(
          a,
          `exceeded quota: ${String(quota.metadata.name)}, requested: ${prettyPrint(mask(delta, exceeded))}, used: ${prettyPrint(mask(used, exceeded))}, limited: ${prettyPrint(mask(hard, exceeded))}`,
        );
    }
    out.push({ quota, used: next });
  }
  return out;
}

export const resourceQuota: AdmissionPlugin = {
  name: "ResourceQuota",
  handles: (operation) => operation === "CREATE" || operation === "UPDATE",
  validate(a: AdmissionAttributes, ctx: AdmissionContext): void {
    if (a.namespace === "" || a.object === undefined) return;
    const e = evaluatorFor(a.resource.group, a.resource.resource);
    if (!e.handles(a.operation, a.subresource)) return;
    const quotas = ctx.store.list(QUOTAS, { prefix: `${a.namespace}/` }).items;
    if (quotas.length === 0) return;
    const object = { ...a.object, metadata: { ...record(a.object.metadata), namespace: a.namespace } };
    const due = charges({ ...a, object }, e, quotas, ctx.now());
    if (a.dryRun) return;
    for (const { quota, used } of due) {
      const status = { ...record(quota.status), used };
      ctx.store.update(QUOTAS, `${a.namespace}/${String(quota.metadata.name)}`, { ...quota, status });
    }
  },
};
