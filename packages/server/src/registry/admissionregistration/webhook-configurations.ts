/**
 * What ValidatingWebhookConfiguration and MutatingWebhookConfiguration share: kube-apiserver's
 * defaults (failurePolicy Fail, matchPolicy Equivalent, empty selectors, timeoutSeconds 10, rule
 * scope "*", service port 443; mutating: reinvocationPolicy Never) and its validation of every
 * webhook, with its messages.
 */
import type { FieldError } from "../../api/status.js";
import { dns1123SubdomainProblems } from "../../validation/name-formats.js";
import { matchConditionErrors } from "./match-conditions.js";
import { clientConfigErrors } from "./webhook-client.js";
import { rulesErrors, selectorErrors, supported } from "./webhook-rules.js";

type Json = Record<string, unknown>;
export type WebhookKind = "validating" | "mutating";

const REVIEW_VERSIONS = ["v1", "v1beta1"];

function webhooksOf(obj: Record<string, unknown>): Json[] {
  return Array.isArray(obj.webhooks)
    ? (obj.webhooks as Json[]).filter((w) => typeof w === "object" && w !== null)
    : [];
}

export function defaultWebhooks(kind: WebhookKind, obj: Record<string, unknown>): void {
  for (const w of webhooksOf(obj)) {
    w.failurePolicy ??= "Fail";
    w.matchPolicy ??= "Equivalent";
    w.namespaceSelector ??= {};
    w.objectSelector ??= {};
    w.timeoutSeconds ??= 10;
    if (kind === "mutating") w.reinvocationPolicy ??= "Never";
    for (const r of Array.isArray(w.rules) ? (w.rules as Json[]) : []) r.scope ??= "*";
    const service = (w.clientConfig as Json | undefined)?.service as Json | undefined;
    if (service) service.port ??= 443;
  }
}

function nameErrors(name: unknown, field: string): FieldError[] {
  const value = typeof name === "string" ? name : "";
  if (value === "") return [{ type: "FieldValueRequired", field, detail: "" }];
  const problems = dns1123SubdomainProblems(value);
  if (problems.length > 0)
    return problems.map((detail) => ({ type: "FieldValueInvalid", field, value, detail }));
  if (value.split(".").length < 3)
    return [
      {
        type: "FieldValueInvalid",
        field,
        value,
        detail: "should be a domain with at least three segments separated by dots",
      },
    ];
  return [];
}

function oneOf(value: unknown, allowed: readonly string[], field: string): FieldError[] {
  if (value === undefined || allowed.includes(value as string)) return [];
  return [{ type: "FieldValueNotSupported", field, value, detail: supported(allowed) }];
}

function versionsErrors(versions: unknown, field: string): FieldError[] {
  const list = Array.isArray(versions) ? (versions as string[]) : [];
  if (list.length === 0)
    return [{ type: "FieldValueRequired", field, detail: "must specify one of v1, v1beta1" }];
  if (!list.some((v) => REVIEW_VERSIONS.includes(v)))
    return [
      { type: "FieldValueInvalid", field, value: list, detail: "must include at least one of v1, v1beta1" },
    ];
  return [];
}

function sideEffectsErrors(value: unknown, field: string): FieldError[] {
  if (value === undefined)
    return [{ type: "FieldValueRequired", field, detail: "must specify one of None, NoneOnDryRun" }];
  return oneOf(value, ["None", "NoneOnDryRun"], field);
}

function webhookErrors(kind: WebhookKind, w: Json, at: string): FieldError[] {
  const errs: FieldError[] = [...nameErrors(w.name, `${at}.name`)];
  errs.push(...rulesErrors(w.rules, `${at}.rules`));
  errs.push(...oneOf(w.failurePolicy, ["Fail", "Ignore"], `${at}.failurePolicy`));
  errs.push(...oneOf(w.matchPolicy, ["Equivalent", "Exact"], `${at}.matchPolicy`));
  errs.push(...sideEffectsErrors(w.sideEffects, `${at}.sideEffects`));
  const timeout = w.timeoutSeconds;
  if (typeof timeout === "number" && (timeout < 1 || timeout > 30))
    errs.push({
      type: "FieldValueInvalid",
      field: `${at}.timeoutSeconds`,
      value: timeout,
      detail: "the timeout value must be between 1 and 30 seconds",
    });
  errs.push(...versionsErrors(w.admissionReviewVersions, `${at}.admissionReviewVersions`));
  errs.push(...selectorErrors(w.namespaceSelector as Json | undefined, `${at}.namespaceSelector`));
  errs.push(...selectorErrors(w.objectSelector as Json | undefined, `${at}.objectSelector`));
  if (kind === "mutating")
    errs.push(...oneOf(w.reinvocationPolicy, ["IfNeeded", "Never"], `${at}.reinvocationPolicy`));
  errs.push(...clientConfigErrors(w.clientConfig as Json | undefined, `${at}.clientConfig`));
  errs.push(...matchConditionErrors(w.matchConditions, `${at}.matchConditions`));
  return errs;
}

export function validateWebhooks(kind: WebhookKind, obj: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  webhooksOf(obj).forEach((w, i) => {
    const at = `webhooks[${i}]`;
    errs.push(...webhookErrors(kind, w, at));
    const name = typeof w.name === "string" ? w.name : "";
    if (name !== "" && seen.has(name))
      errs.push({ type: "FieldValueDuplicate", field: `${at}.name`, value: name, detail: "" });
    seen.add(name);
  });
  return errs;
}
