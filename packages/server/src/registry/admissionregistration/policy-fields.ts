/**
 * Field checks shared by the admission policy kinds and their bindings, as upstream validates
 * them: matchResources (matchPolicy, selectors, resource rules), paramKind, paramRef and the
 * defaults upstream sets on match resources (matchPolicy Equivalent, empty selectors, rule scope
 * `*`). The wildcard combinations of `resources` are not checked here (docs/divergences.md VAP5).
 */
import type { FieldError } from "../../api/status.js";
import { forbidden, invalid, notSupported, required } from "../../validation/field-errors.js";
import { dns1035LabelProblems, dns1123SubdomainProblems } from "../../validation/name-formats.js";
import { labelSelectorErrors } from "../../validation/selector-rules.js";

export { invalid, notSupported, required };

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
export const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

const OPERATIONS = ["*", "CONNECT", "CREATE", "DELETE", "UPDATE"];
const SCOPES = ["*", "Cluster", "Namespaced"];

/** Upstream's defaults of a MatchResources, in place. */
export function defaultMatchResources(mr: unknown): void {
  if (!isObj(mr)) return;
  mr.matchPolicy ??= "Equivalent";
  mr.namespaceSelector ??= {};
  mr.objectSelector ??= {};
  for (const rule of [...objects(mr.resourceRules), ...objects(mr.excludeResourceRules)]) rule.scope ??= "*";
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

function validateRule(rule: Obj, path: string, operations: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  const ops = strings(rule.operations);
  if (ops.length === 0) errs.push(required(`${path}.operations`));
  if (ops.length > 1 && ops.includes("*"))
    errs.push(invalid(`${path}.operations`, ops, "if '*' is present, must not specify other operations"));
  ops.forEach((op, i) => {
    if (!operations.includes(op)) errs.push(notSupported(`${path}.operations[${i}]`, op, operations));
  });
  const groups = strings(rule.apiGroups);
  if (groups.length === 0) errs.push(required(`${path}.apiGroups`));
  if (groups.length > 1 && groups.includes("*"))
    errs.push(invalid(`${path}.apiGroups`, groups, "if '*' is present, must not specify other API groups"));
  const versions = strings(rule.apiVersions);
  if (versions.length === 0) errs.push(required(`${path}.apiVersions`));
  if (versions.length > 1 && versions.includes("*"))
    errs.push(
      invalid(`${path}.apiVersions`, versions, "if '*' is present, must not specify other API versions"),
    );
  versions.forEach((v, i) => {
    if (v === "") errs.push(required(`${path}.apiVersions[${i}]`));
  });
  const resources = strings(rule.resources);
  if (resources.length === 0) errs.push(required(`${path}.resources`));
  resources.forEach((r, i) => {
    if (r === "") errs.push(required(`${path}.resources[${i}]`));
  });
  if (rule.scope !== undefined && !SCOPES.includes(String(rule.scope)))
    errs.push(notSupported(`${path}.scope`, rule.scope, SCOPES));
  return errs;
}

/** A MatchResources (policy matchConstraints, binding matchResources). */
export function validateMatchResources(mr: unknown, path: string): FieldError[] {
  if (!isObj(mr)) return [];
  const errs: FieldError[] = [];
  if (mr.matchPolicy === undefined) errs.push(required(`${path}.matchPolicy`));
  else if (mr.matchPolicy !== "Exact" && mr.matchPolicy !== "Equivalent")
    errs.push(notSupported(`${path}.matchPolicy`, mr.matchPolicy, ["Equivalent", "Exact"]));
  if (mr.namespaceSelector === undefined) errs.push(required(`${path}.namespaceSelector`));
  else errs.push(...labelSelectorErrors(mr.namespaceSelector, `${path}.namespaceSelector`));
  if (mr.objectSelector === undefined) errs.push(required(`${path}.objectSelector`));
  else errs.push(...labelSelectorErrors(mr.objectSelector, `${path}.objectSelector`));
  for (const list of ["resourceRules", "excludeResourceRules"])
    objects(mr[list]).forEach((rule, i) => {
      errs.push(...validateRule(rule, `${path}.${list}[${i}]`, OPERATIONS));
    });
  return errs;
}

/** Operations a mutating policy or its binding may name (no DELETE). */
export function validateMutatingOperations(mr: unknown, path: string): FieldError[] {
  const supported = ["*", "CONNECT", "CREATE", "UPDATE"];
  const errs: FieldError[] = [];
  for (const rule of objects(isObj(mr) ? mr.resourceRules : undefined))
    for (const op of strings(rule.operations))
      if (!supported.includes(op)) errs.push(notSupported(`${path}.resourceRules.operations`, op, supported));
  return errs;
}

export function validateParamKind(pk: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = typeof pk.apiVersion === "string" ? pk.apiVersion : "";
  if (apiVersion === "") errs.push(required(`${path}.apiVersion`));
  else {
    const parts = apiVersion.split("/");
    if (parts.length > 2)
      errs.push(invalid(`${path}.apiVersion`, apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
    else {
      const [group, version] = parts.length === 2 ? (parts as [string, string]) : ["", apiVersion];
      const groupErrs = group ? dns1123SubdomainProblems(group) : [];
      if (groupErrs.length > 0) errs.push(invalid(`${path}.apiVersion`, group, groupErrs.join(",")));
      if (version === "") errs.push(invalid(`${path}.apiVersion`, apiVersion, "version must be specified"));
      else {
        const versionErrs = dns1035LabelProblems(version);
        if (versionErrs.length > 0) errs.push(invalid(`${path}.apiVersion`, version, versionErrs.join(",")));
      }
    }
  }
  const kind = typeof pk.kind === "string" ? pk.kind : "";
  if (kind === "") errs.push(required(`${path}.kind`));
  else {
    const kindErrs = dns1035LabelProblems(kind.toLowerCase());
    if (kindErrs.length > 0)
      errs.push(
        invalid(
          `${path}.kind`,
          kind,
          `may have mixed case, but should otherwise match: ${kindErrs.join(",")}`,
        ),
      );
  }
  return errs;
}

export function validateParamRef(pr: unknown, path: string): FieldError[] {
  if (!isObj(pr)) return [];
  const errs: FieldError[] = [];
  const name = typeof pr.name === "string" ? pr.name : "";
  const hasSelector = isObj(pr.selector);
  if (name !== "" && hasSelector)
    errs.push(forbidden(`${path}.name`, "name and selector are mutually exclusive"));
  if (hasSelector) errs.push(...labelSelectorErrors(pr.selector, `${path}.selector`));
  if (hasSelector && name !== "")
    errs.push(forbidden(`${path}.selector`, "name and selector are mutually exclusive"));
  if (name === "" && !hasSelector) errs.push(required(path, "one of name or selector must be specified"));
  const action = pr.parameterNotFoundAction;
  if (action === undefined || action === "") errs.push(required(`${path}.parameterNotFoundAction`));
  else if (action !== "Deny" && action !== "Allow")
    errs.push(notSupported(`${path}.parameterNotFoundAction`, action, ["Deny", "Allow"]));
  return errs;
}

/** A binding's policyName. */
export function validatePolicyName(spec: Obj, path: string): FieldError[] {
  const name = typeof spec.policyName === "string" ? spec.policyName : "";
  if (name === "") return [required(`${path}.policyName`)];
  return dns1123SubdomainProblems(name).map((m) => invalid(`${path}.policyName`, name, m));
}
