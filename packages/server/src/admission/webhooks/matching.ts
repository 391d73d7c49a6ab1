/**
 * Whether a webhook is called for a request, in upstream's order of checks: the webhook
 * configuration kinds themselves are never sent to webhooks; then the namespaceSelector, the
 * objectSelector and the rules (operation, group, version, resource with subresource, scope); with
 * matchPolicy Equivalent, a rule naming another served version of a custom resource matches too.
 * matchConditions come after these (match-conditions.ts).
 */
import { type LabelSelectorObject, matchesLabels, requirementsOfSelector } from "../../api/label-selector.js";
import type { AdmissionAttributes } from "../attributes.js";
import type { AdmissionContext } from "../context.js";
import type { RuleWithOperations, Webhook } from "./configurations.js";

/** Kinds whose writes never go to webhooks, so that a broken webhook can always be removed. */
const EXEMPT = new Set([
  "validatingwebhookconfigurations",
  "mutatingwebhookconfigurations",
  "validatingadmissionpolicies",
  "validatingadmissionpolicybindings",
  "mutatingadmissionpolicies",
  "mutatingadmissionpolicybindings",
]);

export function isExempt(a: AdmissionAttributes): boolean {
  return a.resource.group === "admissionregistration.k8s.io" && EXEMPT.has(a.resource.resource);
}

type Json = Record<string, unknown>;

function labelsOf(obj: Record<string, unknown> | undefined): unknown {
  return (obj?.metadata as Json | undefined)?.labels;
}

function isEmpty(s: LabelSelectorObject): boolean {
  return Object.keys(s.matchLabels ?? {}).length === 0 && (s.matchExpressions ?? []).length === 0;
}

const isNamespaceObject = (a: AdmissionAttributes) =>
  a.resource.group === "" && a.resource.resource === "namespaces";

/**
 * The namespaceSelector: a Namespace is matched by its own labels; other cluster-scoped objects
 * always match; a namespaced object by its namespace's labels (none when it does not exist).
 */
export function matchesNamespaceSelector(w: Webhook, a: AdmissionAttributes, ctx: AdmissionContext): boolean {
  if (isEmpty(w.namespaceSelector)) return true;
  const reqs = requirementsOfSelector(w.namespaceSelector);
  if (isNamespaceObject(a)) return matchesLabels(reqs, labelsOf(a.object ?? a.oldObject));
  if (a.namespace === "") return true;
  const ns = ctx.store.get("/namespaces", a.namespace) as Json | undefined;
  return matchesLabels(reqs, labelsOf(ns));
}

/** The objectSelector: the new object's or the old object's labels. */
export function matchesObjectSelector(w: Webhook, a: AdmissionAttributes): boolean {
  if (isEmpty(w.objectSelector)) return true;
  const reqs = requirementsOfSelector(w.objectSelector);
  const matches = (o: Record<string, unknown> | undefined) =>
    o !== undefined && matchesLabels(reqs, labelsOf(o));
  return matches(a.object) || matches(a.oldObject);
}

const anyOf = (list: readonly string[], value: string) => list.includes("*") || list.includes(value);

function scopeMatches(rule: RuleWithOperations, a: AdmissionAttributes): boolean {
  if (rule.scope === "Namespaced") return !isNamespaceObject(a) && a.namespace !== "";
  if (rule.scope === "Cluster") return isNamespaceObject(a) || a.namespace === "";
  return true;
}

/** `pods` is the main resource only, `pods/*` its subresources, `*` every main resource, `*\/*` all. */
function resourceMatches(rule: RuleWithOperations, a: AdmissionAttributes): boolean {
  return rule.resources.some((entry) => {
    const slash = entry.indexOf("/");
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? "" : entry.slice(slash + 1);
    return (res === "*" || res === a.resource.resource) && (sub === "*" || sub === a.subresource);
  });
}

export function ruleMatches(rule: RuleWithOperations, a: AdmissionAttributes): boolean {
  return (
    anyOf(rule.operations, a.operation) &&
    anyOf(rule.apiGroups, a.resource.group) &&
    anyOf(rule.apiVersions, a.resource.version) &&
    resourceMatches(rule, a) &&
    scopeMatches(rule, a)
  );
}

/** The request's attributes as seen for another version of its resource (rules only). */
function atVersion(a: AdmissionAttributes, version: string): AdmissionAttributes {
  return { ...a, kind: { ...a.kind, version }, resource: { ...a.resource, version } };
}

/**
 * The version the webhook is called for (matchConditions aside): the request's own when a rule
 * names it; else, under matchPolicy Equivalent, the first other served version a rule names (the
 * object is converted to it); undefined when the webhook is not called.
 */
export function matchedVersion(
  w: Webhook,
  a: AdmissionAttributes,
  ctx: AdmissionContext,
): string | undefined {
  if (!matchesNamespaceSelector(w, a, ctx) || !matchesObjectSelector(w, a)) return undefined;
  if (w.rules.some((rule) => ruleMatches(rule, a))) return a.resource.version;
  if (w.matchPolicy !== "Equivalent" || a.equivalents === undefined) return undefined;
  return a.equivalents.versions.find((v) => w.rules.some((rule) => ruleMatches(rule, atVersion(a, v))));
}

/** Whether the webhook's selectors and rules select the request (matchConditions aside). */
export function selects(w: Webhook, a: AdmissionAttributes, ctx: AdmissionContext): boolean {
  return matchedVersion(w, a, ctx) !== undefined;
}
