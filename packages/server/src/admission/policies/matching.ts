/**
 * Which requests a policy or binding applies to (upstream's matchResources), and in which version
 * of the resource (matchPolicy Equivalent): the operation, resource and scope of resourceRules
 * (`*`, `pods/status`, `pods/*`, `*\/scale`), resourceNames, excludeResourceRules,
 * namespaceSelector (a cluster-scoped object always passes it, a Namespace is judged by its own
 * labels) and objectSelector (the new or the old object's labels). Policies
 * exempt the admission configuration kinds themselves, as upstream does.
 */
import type { AdmissionAttributes } from "../attributes.js";
import type { AdmissionContext } from "../context.js";
import { isObj, type Obj, stringsOf } from "./json.js";

const EXEMPT_KINDS = new Set([
  "ValidatingWebhookConfiguration",
  "MutatingWebhookConfiguration",
  "ValidatingAdmissionPolicy",
  "ValidatingAdmissionPolicyBinding",
  "MutatingAdmissionPolicy",
  "MutatingAdmissionPolicyBinding",
]);

/** Admission configuration objects are never subject to policies (nor webhooks). */
export function isExemptFromPolicies(a: AdmissionAttributes): boolean {
  return a.kind.group === "admissionregistration.k8s.io" && EXEMPT_KINDS.has(a.kind.kind);
}

/** A metav1.LabelSelector (matchLabels, matchExpressions) against a label set; {} matches all. */
export function selectorMatches(selector: unknown, labels: Readonly<Record<string, string>>): boolean {
  if (!isObj(selector)) return true;
  const matchLabels = isObj(selector.matchLabels) ? selector.matchLabels : {};
  for (const [k, v] of Object.entries(matchLabels)) if (labels[k] !== String(v)) return false;
  const exprs = Array.isArray(selector.matchExpressions) ? selector.matchExpressions.filter(isObj) : [];
  return exprs.every((e) => {
    const key = String(e.key ?? "");
    const has = Object.hasOwn(labels, key);
    const values = stringsOf(e.values);
    switch (e.operator) {
      case "In":
        return has && values.includes(labels[key] as string);
      case "NotIn":
        return !has || !values.includes(labels[key] as string);
      case "Exists":
        return has;
      case "DoesNotExist":
        return !has;
      default:
        return false;
    }
  });
}

function labelsOf(obj: unknown): Record<string, string> {
  const meta = isObj(obj) ? obj.metadata : undefined;
  const labels = isObj(meta) ? meta.labels : undefined;
  return isObj(labels) ? (labels as Record<string, string>) : {};
}

const listed = (list: string[], value: string) => list.includes("*") || list.includes(value);

function resourceMatches(rules: string[], resource: string, sub: string): boolean {
  return rules.some((r) => {
    if (r === "*/*") return true;
    const [res = "", rsub] = r.split("/", 2);
    if (rsub === undefined) return sub === "" && (res === "*" || res === resource);
    return (res === "*" || res === resource) && (rsub === "*" || rsub === sub);
  });
}

/** One NamedRuleWithOperations against the request. */
export function ruleMatches(rule: Obj, a: AdmissionAttributes): boolean {
  if (!listed(stringsOf(rule.operations), a.operation)) return false;
  if (!listed(stringsOf(rule.apiGroups), a.resource.group)) return false;
  if (!listed(stringsOf(rule.apiVersions), a.resource.version)) return false;
  if (!resourceMatches(stringsOf(rule.resources), a.resource.resource, a.subresource)) return false;
  const scope = String(rule.scope ?? "*");
  const clusterScoped = a.namespace === "";
  if (scope === "Cluster" && !clusterScoped) return false;
  if (scope === "Namespaced" && clusterScoped) return false;
  const names = stringsOf(rule.resourceNames);
  return names.length === 0 || names.includes(a.name);
}

/** The request as seen for another version of its resource (rule matching only). */
const atVersion = (a: AdmissionAttributes, version: string): AdmissionAttributes => ({
  ...a,
  kind: { ...a.kind, version },
  resource: { ...a.resource, version },
});

/**
 * The version the rules select the request in: its own when a rule names it; else, under
 * matchPolicy Equivalent, the first other served version of the resource a rule names, rule by
 * rule as upstream looks (the object is then converted to it); undefined when none does.
 */
function rulesVersion(rules: unknown, a: AdmissionAttributes, equivalent: boolean): string | undefined {
  const list = Array.isArray(rules) ? rules.filter(isObj) : [];
  if (list.some((r) => ruleMatches(r, a))) return a.resource.version;
  if (!equivalent || a.equivalents === undefined) return undefined;
  for (const r of list) for (const v of a.equivalents.versions) if (ruleMatches(r, atVersion(a, v))) return v;
  return undefined;
}

/** The labels the namespaceSelector is judged on; undefined when it does not apply. */
function namespaceLabels(a: AdmissionAttributes, ctx: AdmissionContext): Record<string, string> | undefined {
  if (a.kind.group === "" && a.kind.kind === "Namespace") return labelsOf(a.object ?? a.oldObject);
  if (a.namespace === "") return undefined;
  return labelsOf(ctx.store.get("/namespaces", a.namespace));
}

/**
 * The version a matchResources (a policy's matchConstraints, a binding's matchResources) selects
 * the request in (see rulesVersion); undefined when it does not select it.
 */
export function matchedVersion(
  mr: unknown,
  a: AdmissionAttributes,
  ctx: AdmissionContext,
): string | undefined {
  const own = a.resource.version;
  if (!isObj(mr)) return own;
  const nsLabels = namespaceLabels(a, ctx);
  if (nsLabels && !selectorMatches(mr.namespaceSelector, nsLabels)) return undefined;
  const objSel = mr.objectSelector;
  // Either the new or the old object may match; an absent one (CREATE's old, DELETE's new) does not.
  const objectMatches = (o: unknown) => o !== undefined && o !== null && selectorMatches(objSel, labelsOf(o));
  if (!objectMatches(a.object) && !objectMatches(a.oldObject)) return undefined;
  const equivalent = mr.matchPolicy !== "Exact";
  if (rulesVersion(mr.excludeResourceRules, a, equivalent) !== undefined) return undefined;
  // No resourceRules (a binding's matchResources may leave them out) select every resource.
  const rules = Array.isArray(mr.resourceRules) ? mr.resourceRules : [];
  return rules.length === 0 ? own : rulesVersion(rules, a, equivalent);
}

/** Whether a matchResources selects the request (in any version). */
export function matchResourcesSelect(mr: unknown, a: AdmissionAttributes, ctx: AdmissionContext): boolean {
  return matchedVersion(mr, a, ctx) !== undefined;
}
