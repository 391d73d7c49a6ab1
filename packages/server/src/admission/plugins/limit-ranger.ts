/**
 * LimitRanger: the namespace's LimitRanges fill in a new pod's missing container requests and
 * limits (mutating phase, noted in the `kubernetes.io/limit-ranger` annotation) and hold pods and
 * PersistentVolumeClaims to their minimums, maximums and limit/request ratios (validating phase),
 * refusing with 403 Forbidden in upstream's words. Pods are checked when created (their containers'
 * resources change only through `resize`); claims when created or updated.
 */
import type { StoredObject } from "../../storage/mvcc.js";
import type { AdmissionAttributes } from "../attributes.js";
import type { AdmissionContext } from "../context.js";
import { type AdmissionPlugin, forbidden } from "../plugin.js";
import { amountOf, compareAmounts, type ResourceList } from "../quota/amounts.js";
import { podContainers, podTotals } from "../quota/pod-usage.js";

type Json = Record<string, unknown>;

const ANNOTATION = "kubernetes.io/limit-ranger";
const record = (v: unknown): Json =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {};
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.map(record) : []);
const amounts = (v: unknown): ResourceList =>
  Object.fromEntries(Object.entries(record(v)).map(([k, x]) => [k, String(x)]));

function rangesOf(ctx: AdmissionContext, namespace: string): StoredObject[] {
  return ctx.store.list("/limitranges", { prefix: `${namespace}/` }).items;
}

function applies(a: AdmissionAttributes): "pod" | "claim" | undefined {
  if (a.resource.group !== "" || a.namespace === "" || a.object === undefined || a.subresource !== "")
    return undefined;
  const target =
    a.resource.resource === "pods"
      ? a.operation === "CREATE"
        ? "pod"
        : undefined
      : a.resource.resource === "persistentvolumeclaims"
        ? "claim"
        : undefined;
  // Asked last: every write of every kind comes here, and only pods and claims are limited.
  if (target === undefined || record(a.oldObject?.metadata).deletionTimestamp !== undefined) return undefined;
  return target;
}

/** Fills one container's missing requests and limits; returns the annotation parts it earned. */
function fillContainer(
  c: Json,
  defaults: { requests: ResourceList; limits: ResourceList },
  label: string,
): string[] {
  const resources = record(c.resources);
  c.resources = resources;
  const out: string[] = [];
  for (const which of ["requests", "limits"] as const) {
    const own = record(resources[which]);
    const set = Object.keys(defaults[which])
      .filter((k) => own[k] === undefined)
      .sort();
    for (const k of set) own[k] = defaults[which][k];
    if (Object.keys(own).length > 0) resources[which] = own;
    if (set.length > 0)
      out.push(
        `${set.join(", ")} ${which === "requests" ? "request" : "limit"} for ${label} ${String(c.name)}`,
      );
  }
  return out;
}

function fillPod(pod: Json, range: StoredObject): void {
  const defaults = { requests: {} as ResourceList, limits: {} as ResourceList };
  for (const item of list(record(range.spec).limits))
    if (item.type === "Container") {
      Object.assign(defaults.requests, amounts(item.defaultRequest));
      Object.assign(defaults.limits, amounts(item.default));
    }
  const spec = record(pod.spec);
  const notes = [
    ...list(spec.containers).flatMap((c) => fillContainer(c, defaults, "container")),
    ...list(spec.initContainers).flatMap((c) => fillContainer(c, defaults, "init container")),
  ];
  if (notes.length === 0) return;
  const meta = record(pod.metadata);
  meta.annotations = {
    ...record(meta.annotations),
    [ANNOTATION]: `LimitRanger plugin set: ${notes.join("; ")}`,
  };
}

type Check = (
  type: string,
  name: string,
  enforced: string,
  req: ResourceList,
  lim: ResourceList,
) => string | undefined;

const minimum: Check = (type, name, enforced, req, lim) => {
  if (req[name] === undefined)
    return `minimum ${name} usage per ${type} is ${enforced}.  No request is specified`;
  if (compareAmounts(req[name], enforced) < 0)
    return `minimum ${name} usage per ${type} is ${enforced}, but request is ${req[name]}`;
  if (lim[name] !== undefined && compareAmounts(lim[name], enforced) < 0)
    return `minimum ${name} usage per ${type} is ${enforced}, but limit is ${lim[name]}`;
  return undefined;
};

const maximum: Check = (type, name, enforced, req, lim) => {
  if (lim[name] === undefined)
    return `maximum ${name} usage per ${type} is ${enforced}.  No limit is specified`;
  if (compareAmounts(lim[name], enforced) > 0)
    return `maximum ${name} usage per ${type} is ${enforced}, but limit is ${lim[name]}`;
  if (req[name] !== undefined && compareAmounts(req[name], enforced) > 0)
    return `maximum ${name} usage per ${type} is ${enforced}, but request is ${req[name]}`;
  return undefined;
};

/** Milli-units as Go compares them here (rounded up, as MilliValue does). */
function milli(q: string | undefined): number {
  const a = q === undefined ? undefined : amountOf(q);
  if (!a) return 0;
  const n = a.num * 1000n;
  return Number(n / a.den + (n % a.den > 0n ? 1n : 0n));
}

const ratio: Check = (type, name, enforced, req, lim) => {
  const prefix = `${name} max limit to request ratio per ${type} is ${enforced}`;
  if (milli(req[name]) === 0) return `${prefix}, but no request is specified or request is 0`;
  if (milli(lim[name]) === 0) return `${prefix}, but no limit is specified or limit is 0`;
  const observed = milli(lim[name]) / milli(req[name]);
  return observed * 1000 > milli(enforced)
    ? `${prefix}, but provided ratio is ${observed.toFixed(6)}`
    : undefined;
};

function checkAll(item: Json, type: string, req: ResourceList, lim: ResourceList, out: string[]): void {
  for (const [field, check] of [
    ["min", minimum],
    ["max", maximum],
    ["maxLimitRequestRatio", ratio],
  ] as const)
    for (const [name, enforced] of Object.entries(amounts(item[field]))) {
      const why = check(type, name, enforced, req, lim);
      if (why !== undefined) out.push(why);
    }
}

function podProblems(pod: Json, range: StoredObject): string[] {
  const out: string[] = [];
  for (const item of list(record(range.spec).limits)) {
    if (item.type === "Container")
      for (const c of podContainers(pod)) {
        const r = record(c.resources);
        checkAll(item, "Container", amounts(r.requests), amounts(r.limits), out);
      }
    if (item.type === "Pod")
      checkAll(item, "Pod", podTotals(pod, "requests", false), podTotals(pod, "limits", false), out);
  }
  return out;
}

function claimProblems(claim: Json, range: StoredObject): string[] {
  const out: string[] = [];
  const requests = amounts(record(record(claim.spec).resources).requests);
  for (const item of list(record(range.spec).limits)) {
    if (item.type !== "PersistentVolumeClaim") continue;
    for (const [name, enforced] of Object.entries(amounts(item.min))) {
      const why = minimum("PersistentVolumeClaim", name, enforced, requests, {});
      if (why !== undefined) out.push(why);
    }
    for (const [name, enforced] of Object.entries(amounts(item.max))) {
      if (requests[name] === undefined)
        out.push(`maximum ${name} usage per PersistentVolumeClaim is ${enforced}.  No request is specified`);
      else if (compareAmounts(requests[name], enforced) > 0)
        out.push(
          `maximum ${name} usage per PersistentVolumeClaim is ${enforced}, but request is ${requests[name]}`,
        );
    }
  }
  return out;
}

export const limitRanger: AdmissionPlugin = {
  name: "LimitRanger",
  handles: (operation) => operation === "CREATE" || operation === "UPDATE",
  admit(a: AdmissionAttributes, ctx: AdmissionContext): void {
    if (applies(a) !== "pod") return;
    for (const range of rangesOf(ctx, a.namespace)) fillPod(a.object as Json, range);
  },
  validate(a: AdmissionAttributes, ctx: AdmissionContext): void {
    const kind = applies(a);
    if (kind === undefined) return;
    for (const range of rangesOf(ctx, a.namespace)) {
      const problems =
        kind === "pod" ? podProblems(a.object as Json, range) : claimProblems(a.object as Json, range);
      // Upstream aggregates one LimitRange's errors: one alone, or several in brackets.
      if (problems.length > 0)
        throw forbidden(a, problems.length === 1 ? (problems[0] as string) : `[${problems.join(", ")}]`);
    }
  },
};
