/**
 * Checks of the CEL parts of admission policies, compiled as admission will compile them
 * (cel/admission): matchConditions, variables, validations (expression, messageExpression,
 * message, reason), auditAnnotations and mutations. A compile failure is the field error
 * upstream reports: `Invalid value: "<expression>": compilation failed: ERROR: <input>:…`.
 */
import type { FieldError } from "../../api/status.js";
import {
  type AdmissionCompiled,
  type CompileOptions,
  compileAdmission,
  compileVariables,
  type VariableDecls,
} from "../../cel/admission/index.js";
import { duplicate, tooMany } from "../../validation/field-errors.js";
import { qualifiedNameProblems } from "../../validation/object-meta.js";
import { invalid, notSupported, type Obj, objects, required } from "./policy-fields.js";

const CEL_IDENTIFIER = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const REASONS = ["Forbidden", "Invalid", "RequestEntityTooLarge"];
const MAX_VALUE_EXPRESSION = 5 * 1024;

/** What a policy's expressions may refer to: `params` (a paramKind) and the policy's variables. */
export interface ExpressionScope {
  readonly params: boolean;
  readonly variables: VariableDecls | undefined;
}

function compiledError(field: string, expression: string, c: AdmissionCompiled): FieldError[] {
  if (c.ok) return [];
  return [c.type === "Required" ? required(field, c.detail) : invalid(field, expression, c.detail)];
}

/** The error of an expression that does not compile, if any. */
function compileError(field: string, expression: string, opts: CompileOptions): FieldError[] {
  return compiledError(field, expression, compileAdmission(expression, opts));
}

/** upstream's ValidateQualifiedName. */
export function qualifiedNameErrors(field: string, value: string): FieldError[] {
  return qualifiedNameProblems(value).map((m) => invalid(field, value, m));
}

export function validateMatchConditions(list: unknown, path: string, params: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const conditions = objects(list);
  if (conditions.length > 64) errs.push(tooMany(path, conditions.length, 64));
  const names = new Set<string>();
  conditions.forEach((c, i) => {
    const at = `${path}[${i}]`;
    const expression = typeof c.expression === "string" ? c.expression : "";
    if (expression.trim() === "") errs.push(required(`${at}.expression`));
    else
      errs.push(
        ...compileError(`${at}.expression`, expression.trim(), {
          params,
          authorizer: true,
          returnTypes: ["bool"],
        }),
      );
    const name = typeof c.name === "string" ? c.name : "";
    if (name === "") errs.push(required(`${at}.name`));
    else errs.push(...qualifiedNameErrors(`${at}.name`, name));
    if (name !== "" && names.has(name)) errs.push(duplicate(`${at}.name`, name));
    names.add(name);
  });
  return errs;
}

/**
 * The variables, compiled in order as admission compiles them (each sees the earlier ones, typed);
 * the scope the policy's other expressions compile in.
 */
export function validateVariables(
  list: unknown,
  path: string,
  params: boolean,
): { errs: FieldError[]; scope: ExpressionScope } {
  const items = objects(list).map((v) => ({
    name: typeof v.name === "string" ? v.name : "",
    expression: typeof v.expression === "string" ? v.expression : "",
  }));
  const composed = compileVariables(items, { params, authorizer: true });
  const errs = items.flatMap(({ name, expression }, i) => {
    const at = `${path}[${i}]`;
    const own: FieldError[] = [];
    if (name.trim() === "") own.push(required(`${at}.name`, "name is not specified"));
    else if (!CEL_IDENTIFIER.test(name))
      own.push(invalid(`${at}.name`, name, "must be a valid CEL identifier"));
    const compiled = composed.variables[i]?.compiled;
    if (compiled) own.push(...compiledError(`${at}.expression`, expression, compiled));
    return own;
  });
  return { errs, scope: { params, variables: composed.decls } };
}

function validateValidation(v: Obj, at: string, scope: ExpressionScope): FieldError[] {
  const errs: FieldError[] = [];
  const expression = typeof v.expression === "string" ? v.expression : "";
  if (expression.trim() === "") errs.push(required(`${at}.expression`, "expression is not specified"));
  else
    errs.push(
      ...compileError(`${at}.expression`, expression, { ...scope, authorizer: true, returnTypes: ["bool"] }),
    );
  const messageExpression = typeof v.messageExpression === "string" ? v.messageExpression : "";
  if (messageExpression !== "" && messageExpression.trim() === "")
    errs.push(invalid(`${at}.messageExpression`, messageExpression, "must be non-empty if specified"));
  else if (messageExpression !== "")
    errs.push(
      ...compileError(`${at}.messageExpression`, messageExpression, {
        ...scope,
        authorizer: false,
        returnTypes: ["string"],
      }),
    );
  const message = typeof v.message === "string" ? v.message : "";
  if (message !== "" && message.trim() === "")
    errs.push(invalid(`${at}.message`, message, "must be non-empty if specified"));
  else if (/[\n\r]/.test(message.trim()))
    errs.push(invalid(`${at}.message`, message, "must not contain line breaks"));
  if (v.reason !== undefined && !REASONS.includes(String(v.reason)))
    errs.push(notSupported(`${at}.reason`, v.reason, REASONS));
  return errs;
}

/** validations and auditAnnotations of a ValidatingAdmissionPolicy spec. */
export function validateValidations(
  spec: Obj,
  path: string,
  policyName: string,
  scope: ExpressionScope,
): FieldError[] {
  const validations = objects(spec.validations);
  const annotations = objects(spec.auditAnnotations);
  if (validations.length === 0 && annotations.length === 0) {
    const why = "validations or auditAnnotations must contain at least one item";
    return [required(`${path}.validations`, why), required(`${path}.auditAnnotations`, why)];
  }
  const errs = validations.flatMap((v, i) => validateValidation(v, `${path}.validations[${i}]`, scope));
  if (annotations.length > 20)
    errs.push(
      invalid(`${path}.auditAnnotations`, annotations, "must not have more than 20 auditAnnotations"),
    );
  const keys = new Set<string>();
  annotations.forEach((a, i) => {
    const at = `${path}.auditAnnotations[${i}]`;
    const key = typeof a.key === "string" ? a.key : "";
    if (policyName !== "") errs.push(...qualifiedNameErrors(`${at}.key`, `${policyName}/${key}`));
    else errs.push(invalid(`${at}.key`, key, "requires metadata.name be non-empty"));
    const value = typeof a.valueExpression === "string" ? a.valueExpression.trim() : "";
    if (value === "") errs.push(required(`${at}.valueExpression`, "valueExpression is not specified"));
    else if (value.length > MAX_VALUE_EXPRESSION)
      errs.push(required(`${at}.valueExpression`, `must not exceed ${MAX_VALUE_EXPRESSION} bytes in length`));
    else
      errs.push(
        ...compileError(`${at}.valueExpression`, value, {
          ...scope,
          authorizer: true,
          returnTypes: ["string", "null"],
        }),
      );
    if (keys.has(key)) errs.push(duplicate(`${at}.key`, key));
    keys.add(key);
  });
  return errs;
}

/** mutations of a MutatingAdmissionPolicy spec. */
export function validateMutations(list: unknown, path: string, scope: ExpressionScope): FieldError[] {
  const mutations = objects(list);
  if (mutations.length === 0) return [required(path, "mutations must contain at least one item")];
  return mutations.flatMap((m, i) => {
    const at = `${path}[${i}]`;
    const kinds = { JSONPatch: "jsonPatch", ApplyConfiguration: "applyConfiguration" } as const;
    if (m.patchType === undefined || m.patchType === "") return [required(`${at}.patchType`)];
    const own = kinds[m.patchType as keyof typeof kinds];
    if (!own) return [notSupported(`${at}.patchType`, m.patchType, ["ApplyConfiguration", "JSONPatch"])];
    const other = own === "jsonPatch" ? "applyConfiguration" : "jsonPatch";
    const errs: FieldError[] = [];
    const holder = m[own] as Obj | undefined;
    if (!holder)
      errs.push(required(`${at}.${own}`, `must be specified when patchType is ${String(m.patchType)}`));
    else {
      const expression = typeof holder.expression === "string" ? holder.expression.trim() : "";
      if (expression === "") errs.push(required(`${at}.${own}.expression`));
      else {
        const returnTypes = [own === "jsonPatch" ? "list" : "map"];
        errs.push(
          ...compileError(`${at}.${own}.expression`, expression, {
            ...scope,
            authorizer: true,
            patchTypes: true,
            returnTypes,
          }),
        );
      }
    }
    if (m[other] !== undefined)
      errs.push(
        invalid(
          `${at}.${other}`,
          `{${other}}`,
          `must not be specified when patchType is ${String(m.patchType)}`,
        ),
      );
    return errs;
  });
}
