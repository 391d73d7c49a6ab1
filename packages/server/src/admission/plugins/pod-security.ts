/**
 * PodSecurity (upstream staging/src/k8s.io/pod-security-admission, run in-tree by kube-apiserver):
 * the Pod Security Standards levels privileged / baseline / restricted, chosen per namespace by
 * its `pod-security.kubernetes.io/<mode>[-version]` labels (privileged when unlabelled, as
 * kube-apiserver without an admission configuration; no exemptions). A pod that breaks the
 * enforce level is refused 403; one that breaks the warn level is admitted with a `Warning`; the
 * audit level only annotates audit events upstream, which the reference server does not write.
 * Workload templates (Deployments, Jobs, …) are warned about, never refused. Namespaces:
 * pod-security/namespace-check.ts. Validating phase only, as upstream.
 */
import type { AdmissionAttributes } from "../attributes.js";
import type { AdmissionContext } from "../context.js";
import { type AdmissionPlugin, forbidden, handlesOnly } from "../plugin.js";
import {
  evaluatePod,
  forbiddenDetail,
  type LevelVersion,
  levelVersionString,
} from "./pod-security/evaluate.js";
import { type Policy, policyOf } from "./pod-security/labels.js";
import { arr, type Json, rec, str } from "./pod-security/model.js";
import { validateNamespace } from "./pod-security/namespace-check.js";
import { isWorkload, templateOf } from "./pod-security/templates.js";
import { isRecord } from "./target.js";

/** Pod subresources that cannot change what the standards look at. */
const IGNORED_POD_SUBRESOURCES = new Set([
  "exec",
  "attach",
  "binding",
  "eviction",
  "log",
  "portforward",
  "proxy",
  "status",
]);

const SECCOMP_POD = "seccomp.security.alpha.kubernetes.io/pod";
const SECCOMP_CONTAINER = "container.seccomp.security.alpha.kubernetes.io/";

function containerChanged(c: Json, old: Json, ann: Json, oldAnn: Json): boolean {
  const key = SECCOMP_CONTAINER + str(c.name);
  return c.image !== old.image || ann[key] !== oldAnn[key];
}

/**
 * Whether a pod update can change the verdict: upstream re-evaluates only when an image, a seccomp
 * annotation or the set of containers changed, since other spec fields of a pod are immutable.
 */
function significantUpdate(pod: Json, old: Json): boolean {
  const ann = rec(rec(pod.metadata).annotations);
  const oldAnn = rec(rec(old.metadata).annotations);
  if (ann[SECCOMP_POD] !== oldAnn[SECCOMP_POD]) return true;
  const spec = rec(pod.spec);
  const oldSpec = rec(old.spec);
  for (const key of ["containers", "initContainers"]) {
    const now = arr(spec[key]);
    const before = arr(oldSpec[key]);
    if (now.length !== before.length) return true;
    if (now.some((c, i) => containerChanged(c, before[i] as Json, ann, oldAnn))) return true;
  }
  const oldEphemeral = arr(oldSpec.ephemeralContainers);
  return arr(spec.ephemeralContainers).some((c) => {
    const before = oldEphemeral.find((o) => o.name === c.name);
    return !before || containerChanged(c, before, ann, oldAnn);
  });
}

function namespacePolicy(a: AdmissionAttributes, ctx: AdmissionContext): Policy | undefined {
  const ns = ctx.store.get("/namespaces", a.namespace);
  // A missing namespace is NamespaceLifecycle's answer (404), which runs first.
  return ns ? policyOf(rec(rec(ns).metadata).labels).policy : undefined;
}

const violation = (lv: LevelVersion, meta: Json, spec: Json): string | undefined => {
  const refused = evaluatePod(lv, meta, spec);
  return refused.length > 0
    ? `PodSecurity "${levelVersionString(lv)}": ${forbiddenDetail(refused)}`
    : undefined;
};

/** Enforce (pods only: 403), then warn, which is skipped when the request is refused anyway. */
function evaluate(a: AdmissionAttributes, policy: Policy, meta: Json, spec: Json, enforce: boolean): void {
  if (enforce) {
    const refused = violation(policy.enforce, meta, spec);
    if (refused) throw forbidden(a, `violates ${refused}`);
  }
  const warned = violation(policy.warn, meta, spec);
  if (warned) a.warnings?.push(`would violate ${warned}`);
}

function validatePod(a: AdmissionAttributes, ctx: AdmissionContext): void {
  if (IGNORED_POD_SUBRESOURCES.has(a.subresource) || !isRecord(a.object)) return;
  const policy = namespacePolicy(a, ctx);
  if (!policy) return;
  const { enforce, warn } = policy;
  if (enforce.level === "privileged" && warn.level === "privileged") return;
  if (a.operation === "UPDATE" && isRecord(a.oldObject) && !significantUpdate(a.object, a.oldObject)) return;
  evaluate(a, policy, rec(a.object.metadata), rec(a.object.spec), true);
}

function validateWorkload(a: AdmissionAttributes, ctx: AdmissionContext): void {
  if (a.subresource !== "" || !isRecord(a.object)) return;
  const template = templateOf(a.resource.group, a.resource.resource, a.object);
  if (!template) return;
  const policy = namespacePolicy(a, ctx);
  if (!policy || policy.warn.level === "privileged") return;
  evaluate(a, policy, template.meta, template.spec, false);
}

export const podSecurity: AdmissionPlugin = {
  name: "PodSecurity",
  handles: handlesOnly("CREATE", "UPDATE"),
  validate(a, ctx) {
    const { group, resource } = a.resource;
    if (group === "" && resource === "namespaces") validateNamespace(a, ctx);
    else if (group === "" && resource === "pods") validatePod(a, ctx);
    else if (a.namespace !== "" && isWorkload(group, resource)) validateWorkload(a, ctx);
  },
};
