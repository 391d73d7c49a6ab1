/**
 * Type checking of a ValidatingAdmissionPolicy, as kube-controller-manager's policy status
 * controller does it: every validation's expression and messageExpression is compiled again with
 * `object` and `oldObject` typed as each built-in kind the policy's resourceRules name exactly (no
 * wildcards, no subresources), after the policy's variables (typed by the same kind); the
 * failures become `status.typeChecking.expressionWarnings`, one per
 * expression, `<group>/<version>, Kind=<kind>: <cel-go issues>` per kind. Custom resources and
 * params are not typed (docs/divergences.md VAP7).
 */
import { builtinResources, schemaFor } from "@kubesdk/models";
import type { Environment } from "@marcbachmann/cel-js";
import { compileExpression } from "../program.js";
import { buildAdmissionEnvironment } from "./environment.js";
import { NativeTypes } from "./native-types.js";
import { declareInOrder, withVariables } from "./variables.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

export interface ExpressionWarning {
  readonly fieldRef: string;
  readonly warning: string;
}

interface Gvk {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** The built-in kinds the policy's resource rules name exactly, in rule order, once each. */
function kindsToCheck(spec: Obj): Gvk[] {
  const out = new Map<string, Gvk>();
  const mc = isObj(spec.matchConstraints) ? spec.matchConstraints : {};
  for (const rule of objects(mc.resourceRules))
    for (const group of strings(rule.apiGroups))
      for (const version of strings(rule.apiVersions))
        for (const resource of strings(rule.resources)) {
          if (group === "*" || version === "*" || resource.includes("*") || resource.includes("/")) continue;
          const r = builtinResources.find(
            (b) => b.group === group && b.version === version && b.plural === resource,
          );
          if (r) out.set(`${group}/${version}/${r.kind}`, { group, version, kind: r.kind });
        }
  return [...out.values()];
}

/** The expressions type-checked: [fieldRef, source] of each expression and messageExpression. */
function expressionsOf(spec: Obj): [string, string][] {
  return objects(spec.validations).flatMap((v, i): [string, string][] => {
    const at = `spec.validations[${i}]`;
    const own: [string, string][] = [[`${at}.expression`, String(v.expression ?? "")]];
    if (typeof v.messageExpression === "string" && v.messageExpression !== "")
      own.push([`${at}.messageExpression`, v.messageExpression]);
    return own;
  });
}

/** The policy's variables, as `{name, expression}`. */
function variablesOf(spec: Obj): { name: string; expression: string }[] {
  return objects(spec.variables).map((v) => ({
    name: String(v.name ?? ""),
    expression: String(v.expression ?? ""),
  }));
}

/**
 * The issues of each expression against one kind (empty string: none). The variables are
 * compiled first, in order, with `object` typed too, so their types reach the expressions.
 */
function checkKind(gvk: Gvk, params: boolean, spec: Obj, expressions: readonly [string, string][]): string[] {
  const schema = schemaFor(gvk);
  if (!schema) return expressions.map(() => "");
  const typed = (env: Environment) =>
    new NativeTypes(env, `kubernetes.typecheck.${gvk.kind}.`).typeOf(schema);
  const base = buildAdmissionEnvironment({ params, authorizer: true }, typed).env;
  const { decls } = declareInOrder(
    variablesOf(spec),
    (source, declared) => compileExpression(withVariables(base, declared), source),
    (c) => (c.ok ? c.program.type : undefined),
  );
  const env = withVariables(base, decls);
  return expressions.map(([, source]) => {
    const c = compileExpression(env, source);
    return c.ok ? "" : `${gvk.group}/${gvk.version}, Kind=${gvk.kind}: ${c.error}\n`;
  });
}

/**
 * The policy's expression warnings. Building a kind's typed environment is costly (a Pod's schema
 * has hundreds of types), so `between` is awaited after each kind: the caller lets other work run.
 */
export async function typeCheckValidatingPolicy(
  policy: Obj,
  between: () => Promise<void> = async () => {},
): Promise<ExpressionWarning[]> {
  const spec = isObj(policy.spec) ? policy.spec : {};
  const expressions = expressionsOf(spec);
  const issues: string[][] = expressions.map(() => []);
  for (const gvk of kindsToCheck(spec)) {
    checkKind(gvk, isObj(spec.paramKind), spec, expressions).forEach((text, i) => {
      if (text) issues[i]?.push(text);
    });
    await between();
  }
  return expressions.flatMap(([fieldRef], i) => {
    const found = issues[i] ?? [];
    return found.length > 0 ? [{ fieldRef, warning: found.join("\n") }] : [];
  });
}
