/**
 * Validation of the parts of an admission webhook that select requests: `rules` (operations,
 * groups, versions, resources, scope) and the namespace and object label selectors, with
 * kube-apiserver's messages.
 */
import { qualifiedNameErrors } from "../../api/metadata-validation.js";
import type { FieldError } from "../../api/status.js";

type Json = Record<string, unknown>;

const OPERATIONS = ["*", "CONNECT", "CREATE", "DELETE", "UPDATE"];
const SCOPES = ["*", "Cluster", "Namespaced"];
const SELECTOR_OPERATORS = ["In", "NotIn", "Exists", "DoesNotExist"];

export const supported = (values: readonly string[]) =>
  `supported values: ${values.map((v) => JSON.stringify(v)).join(", ")}`;

function listErrors(list: unknown, field: string): FieldError[] {
  return Array.isArray(list) && list.length > 0 ? [] : [{ type: "FieldValueRequired", field, detail: "" }];
}

function resourcesErrors(resources: unknown, field: string): FieldError[] {
  const missing = listErrors(resources, field);
  if (missing.length > 0) return missing;
  const list = resources as string[];
  if (list.includes("*") && list.some((r) => r !== "*" && !r.includes("/")))
    return [
      {
        type: "FieldValueInvalid",
        field,
        value: list,
        detail: "if '*' is present, must not specify other resources without subresources",
      },
    ];
  return [];
}

function ruleErrors(rule: Json, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const ops = rule.operations;
  errs.push(...listErrors(ops, `${field}.operations`));
  if (Array.isArray(ops)) {
    ops.forEach((op, i) => {
      if (!OPERATIONS.includes(op))
        errs.push({
          type: "FieldValueNotSupported",
          field: `${field}.operations[${i}]`,
          value: op,
          detail: supported(OPERATIONS),
        });
    });
    if (ops.length > 1 && ops.includes("*"))
      errs.push({
        type: "FieldValueInvalid",
        field: `${field}.operations`,
        value: ops,
        detail: "if '*' is present, must not specify other operations",
      });
  }
  errs.push(...listErrors(rule.apiGroups, `${field}.apiGroups`));
  errs.push(...listErrors(rule.apiVersions, `${field}.apiVersions`));
  errs.push(...resourcesErrors(rule.resources, `${field}.resources`));
  if (rule.scope !== undefined && !SCOPES.includes(rule.scope as string))
    errs.push({
      type: "FieldValueNotSupported",
      field: `${field}.scope`,
      value: rule.scope,
      detail: supported(SCOPES),
    });
  return errs;
}

export function rulesErrors(rules: unknown, field: string): FieldError[] {
  if (!Array.isArray(rules)) return [];
  return rules.flatMap((r, i) => ruleErrors((r ?? {}) as Json, `${field}[${i}]`));
}

export function selectorErrors(selector: Json | undefined, field: string): FieldError[] {
  if (!selector) return [];
  const errs: FieldError[] = [];
  for (const key of Object.keys((selector.matchLabels ?? {}) as Json))
    errs.push(...qualifiedNameErrors(key, `${field}.matchLabels`));
  ((selector.matchExpressions ?? []) as Json[]).forEach((e, i) => {
    const at = `${field}.matchExpressions[${i}]`;
    if (!SELECTOR_OPERATORS.includes(e.operator as string))
      errs.push({
        type: "FieldValueInvalid",
        field: `${at}.operator`,
        value: e.operator,
        detail: "not a valid selector operator",
      });
    errs.push(...qualifiedNameErrors(String(e.key ?? ""), `${at}.key`));
  });
  return errs;
}
