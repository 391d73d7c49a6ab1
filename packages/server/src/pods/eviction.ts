/**
 * `POST pods/eviction`: deletes the pod unless a PodDisruptionBudget selecting it allows no
 * disruption, which is answered with 429 TooManyRequests and a DisruptionBudget cause, as upstream.
 */
import { errors, failure } from "../api/status.js";
import type { ApiResponse, HandlerContext } from "../endpoints/handlers/context.js";
import { deleteObject } from "../endpoints/handlers/delete.js";
import { parseDeleteOptions } from "../endpoints/handlers/delete-options.js";

type Selector = {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
};
type Labeled = { metadata?: { name?: string; labels?: Record<string, string> } };
type Budget = Labeled & {
  spec?: { selector?: Selector; minAvailable?: number | string; maxUnavailable?: number | string };
};

function selects(selector: Selector | undefined, labels: Record<string, string> = {}): boolean {
  if (selector === undefined) return false;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, e.key);
    const value = labels[e.key];
    const ok =
      e.operator === "In"
        ? has && (e.values ?? []).includes(value as string)
        : e.operator === "NotIn"
          ? !has || !(e.values ?? []).includes(value as string)
          : e.operator === "Exists"
            ? has
            : !has;
    if (!ok) return false;
  }
  return true;
}

function resolveCount(
  value: number | string | undefined,
  total: number,
  roundUp: boolean,
): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "number") return value;
  const pct = /^(\d+)%$/.exec(value);
  if (!pct) return undefined;
  const raw = (Number(pct[1]) * total) / 100;
  return roundUp ? Math.ceil(raw) : Math.floor(raw);
}

export function evict(
  ctx: HandlerContext,
  namespace: string,
  name: string,
  body: Record<string, unknown>,
): ApiResponse {
  const pods = ctx.resources.find("", "v1", "pods");
  const budgets = ctx.resources.find("policy", "v1", "poddisruptionbudgets");
  if (!pods) throw errors.notFoundPath();
  const pod = ctx.store.get(pods.bucket, `${namespace}/${name}`) as Labeled | undefined;
  if (!pod) throw errors.notFound({ group: "", resource: "pods" }, name);
  const labels = pod.metadata?.labels;
  // As upstream: pods that are not running (or already deleting) are evicted without budget checks.
  const phase = (pod as { status?: { phase?: string } }).status?.phase ?? "Pending";
  const ignoreBudgets =
    phase !== "Running" ||
    (pod.metadata as { deletionTimestamp?: string } | undefined)?.deletionTimestamp !== undefined;
  const running = (p: Labeled) => (p as { status?: { phase?: string } }).status?.phase === "Running";
  const all = (ctx.store.list(pods.bucket, { prefix: `${namespace}/` }).items as Labeled[]).filter(running);
  for (const pdb of (budgets && !ignoreBudgets
    ? ctx.store.list(budgets.bucket, { prefix: `${namespace}/` }).items
    : []) as Budget[]) {
    if (!selects(pdb.spec?.selector, labels)) continue;
    const healthy = all.filter((p) => selects(pdb.spec?.selector, p.metadata?.labels)).length;
    const min = resolveCount(pdb.spec?.minAvailable, healthy, true);
    const maxUnavailable = resolveCount(pdb.spec?.maxUnavailable, healthy, false);
    const allowed =
      min !== undefined ? healthy - min : maxUnavailable !== undefined ? maxUnavailable : healthy;
    if (allowed > 0) continue;
    const needed = min ?? healthy - (maxUnavailable ?? 0);
    throw failure(
      429,
      "TooManyRequests",
      "Cannot evict pod as it would violate the pod's disruption budget.",
      {
        causes: [
          {
            reason: "DisruptionBudget",
            message: `The disruption budget ${pdb.metadata?.name} needs ${needed} healthy pods and has ${healthy} currently`,
          },
        ],
      },
    );
  }
  const options = parseDeleteOptions(
    new URLSearchParams(),
    body.deleteOptions as Record<string, unknown> | undefined,
  );
  deleteObject(ctx, pods, namespace, name, options);
  return {
    code: 201,
    body: { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 },
  };
}
