/**
 * DeleteOptions as a DELETE or DELETECOLLECTION carries them (the body's win over the query's), and
 * the preconditions they may set, with upstream's errors.
 */
import { queryOptionalBool } from "../../api/query-bool.js";
import { errors, failure } from "../../api/status.js";
import type { ServedResource } from "../../resources/served.js";
import * as c from "./context.js";
import { parseDryRun, parseInt64Param } from "./options.js";

export interface DeleteOptions {
  readonly dryRun: boolean;
  readonly preconditions?: { uid?: string; resourceVersion?: string };
  readonly propagationPolicy?: string;
  readonly gracePeriodSeconds?: number;
  readonly orphanDependents?: boolean;
}

const POLICIES = new Set(["Orphan", "Background", "Foreground"]);

export function parseDeleteOptions(
  q: URLSearchParams,
  body: Record<string, unknown> | undefined,
): DeleteOptions {
  const fromBody = body ?? {};
  const dryRunValues = Array.isArray(fromBody.dryRun) ? (fromBody.dryRun as string[]) : q.getAll("dryRun");
  const dq = new URLSearchParams(dryRunValues.map((v): [string, string] => ["dryRun", String(v)]));
  const dryRun = parseDryRun(dq, "DeleteOptions");
  const policy =
    (fromBody.propagationPolicy as string | undefined) ?? q.get("propagationPolicy") ?? undefined;
  if (policy !== undefined && !POLICIES.has(policy))
    throw errors.invalid("DeleteOptions", "meta.k8s.io", "", [
      {
        type: "FieldValueNotSupported",
        field: "propagationPolicy",
        value: policy,
        detail: 'supported values: "Foreground", "Background", "Orphan", "nil"',
      },
    ]);
  const rawGrace = q.get("gracePeriodSeconds");
  const grace =
    (fromBody.gracePeriodSeconds as number | undefined) ??
    (rawGrace !== null && rawGrace !== "" ? parseInt64Param(rawGrace) : undefined);
  const pre = fromBody.preconditions as DeleteOptions["preconditions"] | undefined;
  const orphan =
    fromBody.orphanDependents !== undefined
      ? fromBody.orphanDependents === true
      : queryOptionalBool(q, "orphanDependents");
  return {
    ...(orphan !== undefined ? { orphanDependents: orphan } : {}),
    dryRun,
    ...(pre ? { preconditions: pre } : {}),
    ...(policy ? { propagationPolicy: policy } : {}),
    ...(grace !== undefined && Number.isFinite(grace) ? { gracePeriodSeconds: grace } : {}),
  };
}

/**
 * Delete preconditions. The generic registry words the Conflict with the Kind
 * (`ConfigMap "x"`, `Deployment.apps "x"`); namespaces check them in their own
 * storage and use the resource and the older wording.
 */
export function checkPreconditions(
  r: ServedResource,
  name: string,
  meta: Record<string, unknown>,
  pre: DeleteOptions["preconditions"],
): void {
  if (!pre) return;
  const uidBad = pre.uid !== undefined && pre.uid !== meta.uid;
  const rvBad = pre.resourceVersion !== undefined && pre.resourceVersion !== meta.resourceVersion;
  if (!uidBad && !rvBad) return;
  if (r.group === "" && r.resource === "namespaces") {
    const why = uidBad
      ? `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${String(meta.uid)}`
      : `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${String(meta.resourceVersion)}`;
    throw errors.conflict(c.qualified(r), name, why);
  }
  const why = uidBad
    ? `the UID in the precondition (${pre.uid}) does not match the UID in record (${String(meta.uid)}). The object might have been deleted and then recreated`
    : `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${String(meta.resourceVersion)}). The object might have been modified`;
  const qualifiedKind = r.group ? `${r.kind}.${r.group}` : r.kind;
  throw failure(409, "Conflict", `Operation cannot be fulfilled on ${qualifiedKind} "${name}": ${why}`, {
    name,
    ...(r.group ? { group: r.group } : {}),
    kind: r.kind,
  });
}
