/**
 * PodSecurity on namespaces: labels must parse on create, and on an update that changes them
 * (422 with one cause per bad label); an update that tightens the enforce policy is answered with
 * warnings naming the existing pods that would now be refused (upstream: ValidateNamespace and
 * EvaluatePodsInNamespace), grouped by their reasons.
 */
import { errors, type FieldError } from "../../../api/status.js";
import type { AdmissionAttributes } from "../../attributes.js";
import type { AdmissionContext } from "../../context.js";
import { evaluatePod, forbiddenReason, type LevelVersion, levelVersionString } from "./evaluate.js";
import { compareLevels, type LabelError, type Policy, policyOf, sameLevelVersion } from "./labels.js";
import { type Json, rec, str } from "./model.js";

/** Upstream checks at most this many pods (and for at most a second). */
const MAX_PODS = 3000;

const labelsOf = (o: unknown) => rec(rec(rec(o).metadata).labels);
const errorText = (errs: readonly LabelError[]) =>
  errs.map((e) => `${e.label}=${e.value}: ${e.message}`).join("\n");

function invalid(a: AdmissionAttributes, errs: readonly LabelError[]) {
  const causes: FieldError[] = errs.map((e) => ({
    type: "FieldValueInvalid",
    field: `metadata.labels[${e.label}]`,
    detail: e.message,
    value: e.value,
  }));
  return errors.invalid("Namespace", "", a.name, causes);
}

/** Whether moving from `old` to `now` may refuse pods that were admitted (else no pods are checked). */
function tightens(old: Policy, now: Policy): boolean {
  if (sameLevelVersion(now.enforce, old.enforce) || now.enforce.level === "privileged") return false;
  return !(
    now.enforce.version === old.enforce.version && compareLevels(now.enforce.level, old.enforce.level) < 1
  );
}

function existingPodWarnings(ctx: AdmissionContext, namespace: string, enforce: LevelVersion): string[] {
  const all = ctx.store.list("/pods", { prefix: `${namespace}/` }).items as Json[];
  const pods = all.slice(0, MAX_PODS);
  const byReason = new Map<string, { first: string; count: number }>();
  for (const pod of pods) {
    const refused = evaluatePod(enforce, rec(pod.metadata), rec(pod.spec));
    if (refused.length === 0) continue;
    const reason = forbiddenReason(refused);
    const name = str(rec(pod.metadata).name);
    const seen = byReason.get(reason) ?? { first: name, count: 0 };
    // The lexically first name stands for the group, whatever order the store lists them in.
    byReason.set(reason, { first: [seen.first, name].sort()[0] as string, count: seen.count + 1 });
  }
  const warnings: string[] = [];
  if (pods.length < all.length)
    warnings.push(
      `new PodSecurity enforce level only checked against the first ${pods.length} of ${all.length} existing pods`,
    );
  if (byReason.size > 0)
    warnings.push(
      `existing pods in namespace "${namespace}" violate the new PodSecurity enforce level "${levelVersionString(enforce)}"`,
    );
  const perReason = [...byReason].map(([reason, { first, count }]) => {
    const others = count === 1 ? "" : count === 2 ? " (and 1 other pod)" : ` (and ${count - 1} other pods)`;
    return `${first}${others}: ${reason}`;
  });
  return [...warnings, ...perReason.sort()];
}

export function validateNamespace(a: AdmissionAttributes, ctx: AdmissionContext): void {
  if (a.subresource !== "" || !a.object) return;
  const now = policyOf(labelsOf(a.object));
  if (a.operation === "CREATE") {
    if (now.errors.length > 0) throw invalid(a, now.errors);
    return;
  }
  if (a.operation !== "UPDATE") return;
  const old = policyOf(labelsOf(a.oldObject));
  if (now.errors.length > 0 && (old.errors.length === 0 || errorText(now.errors) !== errorText(old.errors)))
    throw invalid(a, now.errors);
  if (!tightens(old.policy, now.policy)) return;
  a.warnings?.push(...existingPodWarnings(ctx, str(rec(rec(a.object).metadata).name), now.policy.enforce));
}
