/**
 * RBAC validation as kube-apiserver applies it: policy rules (verbs required, resource rules name
 * API groups and resources, non-resource URLs only in cluster roles and never with resources),
 * aggregation rules, role references (API group, kind, path-segment name; immutable) and subjects
 * (kind, API group, service account names and namespaces).
 */
import type { FieldError } from "../../api/status.js";
import {
  arr,
  FieldErrors,
  immutable,
  invalid,
  isSet,
  type Json,
  notSupported,
  obj,
  required,
  sameValue,
  str,
  strs,
} from "../../validation/field-errors.js";
import { dns1123SubdomainProblems, pathSegment } from "../../validation/name-formats.js";
import { labelSelectorErrors, selectorConversionFails } from "../../validation/selector-rules.js";
import { child } from "../default-fields.js";

const RBAC_GROUP = "rbac.authorization.k8s.io";

function policyRuleErrors(rule: Json, namespaced: boolean, field: string, out: FieldErrors): void {
  if (strs(rule.verbs).length === 0) out.covered(required(`${field}.verbs`));
  const urls = strs(rule.nonResourceURLs);
  if (urls.length > 0) {
    if (namespaced)
      out.add(
        invalid(`${field}.nonResourceURLs`, urls, "namespaced rules cannot apply to non-resource URLs"),
      );
    if (strs(rule.apiGroups).length + strs(rule.resources).length + strs(rule.resourceNames).length > 0)
      out.add(
        invalid(
          `${field}.nonResourceURLs`,
          urls,
          "rules cannot apply to both regular resources and non-resource URLs",
        ),
      );
    return;
  }
  if (strs(rule.apiGroups).length === 0)
    out.add(required(`${field}.apiGroups`, "resource rules must supply at least one api group"));
  if (strs(rule.resources).length === 0)
    out.add(required(`${field}.resources`, "resource rules must supply at least one resource"));
}

function aggregationErrors(role: Json, out: FieldErrors): void {
  if (!isSet(role.aggregationRule)) return;
  const selectors = arr(obj(role.aggregationRule).clusterRoleSelectors);
  const field = "aggregationRule.clusterRoleSelectors";
  if (selectors.length === 0)
    out.add(required(field, "at least one clusterRoleSelector required if aggregationRule is non-nil"));
  selectors.forEach((sel, i) => {
    out.add(...labelSelectorErrors(sel, `${field}[${i}]`));
    if (selectorConversionFails(sel)) out.add(invalid(`${field}[${i}]`, null, "invalid label selector."));
  });
}

/** Role (namespaced) and ClusterRole validation. */
export function roleErrors(role: Json, namespaced: boolean): FieldError[] {
  const out = new FieldErrors();
  arr(role.rules).forEach((rule, i) => {
    policyRuleErrors(obj(rule), namespaced, `rules[${i}]`, out);
  });
  if (!namespaced) aggregationErrors(role, out);
  return out.list();
}

function subjectErrors(subject: Json, namespaced: boolean, field: string, out: FieldErrors): void {
  const name = str(subject.name);
  const apiGroup = str(subject.apiGroup);
  if (name === "") out.covered(required(`${field}.name`));
  switch (str(subject.kind)) {
    case "ServiceAccount":
      if (name !== "")
        out.add(...dns1123SubdomainProblems(name).map((m) => invalid(`${field}.name`, name, m)));
      if (apiGroup !== "") out.add(notSupported(`${field}.apiGroup`, apiGroup, [""]));
      if (!namespaced && str(subject.namespace) === "") out.add(required(`${field}.namespace`));
      break;
    case "User":
    case "Group":
      if (apiGroup !== RBAC_GROUP) out.add(notSupported(`${field}.apiGroup`, apiGroup, [RBAC_GROUP]));
      break;
    default:
      out.add(notSupported(`${field}.kind`, str(subject.kind), ["ServiceAccount", "User", "Group"]));
  }
}

/** RoleBinding (namespaced) and ClusterRoleBinding validation; `old` on updates. */
export function bindingErrors(binding: Json, old: Json | undefined, namespaced: boolean): FieldError[] {
  const out = new FieldErrors();
  const ref = obj(binding.roleRef);
  if (str(ref.apiGroup) !== RBAC_GROUP)
    out.add(notSupported("roleRef.apiGroup", str(ref.apiGroup), [RBAC_GROUP]));
  const kinds = namespaced ? ["Role", "ClusterRole"] : ["ClusterRole"];
  if (!kinds.includes(str(ref.kind))) out.add(notSupported("roleRef.kind", str(ref.kind), kinds));
  const name = str(ref.name);
  if (name !== "") out.add(...pathSegment(name, false).map((m) => invalid("roleRef.name", name, m)));
  arr(binding.subjects).forEach((s, i) => {
    subjectErrors(obj(s), namespaced, `subjects[${i}]`, out);
  });
  // Declarative errors follow the struct's field order: subjects come before roleRef.
  if (name === "") out.covered(required("roleRef.name"));
  if (old && !sameValue(binding.roleRef, old.roleRef)) out.covered(immutable("roleRef", roleRefValue(ref)));
  return out.list();
}

/** The role reference as the declarative check prints it: the internal struct as JSON. */
function roleRefValue(ref: Json): unknown {
  return { APIGroup: str(ref.apiGroup), Kind: str(ref.kind), Name: str(ref.name) };
}

/**
 * rbac/v1 defaulting: a role reference without an API group is in the RBAC group, so is a User or
 * Group subject without one.
 */
export function defaultBinding(binding: Json): void {
  const ref = child(binding, "roleRef");
  if (str(ref.apiGroup) === "") ref.apiGroup = RBAC_GROUP;
  for (const s of arr(binding.subjects)) {
    const subject = obj(s);
    if (str(subject.apiGroup) !== "" || typeof s !== "object" || s === null) continue;
    if (subject.kind === "User" || subject.kind === "Group") subject.apiGroup = RBAC_GROUP;
  }
}
