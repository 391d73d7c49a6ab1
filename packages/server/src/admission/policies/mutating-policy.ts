/**
 * A MutatingAdmissionPolicy compiled for admission (once per generation), and the mutations of
 * one invocation (policy, binding, param) applied to the object: matchConditions first, then each
 * mutation in order on the result of the previous one — ApplyConfiguration (an `Object{…}`
 * literal merged into the object as server-side apply merges) or JSONPatch (a list of
 * `JSONPatch{…}` applied in order; a failed `test` leaves the object as it was).
 */

import { StatusError } from "../../api/status.js";
import {
  AdmissionActivation,
  type AdmissionCompiled,
  type AdmissionInput,
  type CompiledMatchConditions,
  CostPacer,
  compileAdmission,
  compileMatchConditions,
  compileVariables,
  type NamedExpression,
} from "../../cel/admission/index.js";
import { applyJsonPatch } from "../../patch/json-patch.js";
import { isObj, namedExpressions, type Obj, objectsOf } from "./json.js";
import type { FailurePolicy } from "./validating-policy.js";

/** Merges an apply configuration into an object of a kind (the server's structured merge for it). */
export type ApplyMerge = (
  object: Obj,
  applied: Obj,
  kind: { readonly group: string; readonly version: string; readonly kind: string },
) => Obj;

interface CompiledMutation {
  readonly patchType: "ApplyConfiguration" | "JSONPatch";
  readonly expression: AdmissionCompiled;
}

export interface CompiledMutatingPolicy {
  readonly name: string;
  readonly spec: Obj;
  readonly failurePolicy: FailurePolicy;
  readonly hasParams: boolean;
  readonly reinvoke: boolean;
  readonly matchConditions?: CompiledMatchConditions;
  readonly variables: readonly NamedExpression[];
  readonly mutations: readonly CompiledMutation[];
}

export function compileMutatingPolicy(policy: Obj): CompiledMutatingPolicy {
  const meta = isObj(policy.metadata) ? policy.metadata : {};
  const spec = isObj(policy.spec) ? policy.spec : {};
  const hasParams = isObj(spec.paramKind);
  const composed = compileVariables(namedExpressions(spec.variables), {
    params: hasParams,
    authorizer: true,
  });
  const vars = { params: hasParams, authorizer: true, variables: composed.decls } as const;
  const conditions = namedExpressions(spec.matchConditions);
  return {
    name: String(meta.name ?? ""),
    spec,
    failurePolicy: spec.failurePolicy === "Ignore" ? "Ignore" : "Fail",
    hasParams,
    reinvoke: spec.reinvocationPolicy === "IfNeeded",
    ...(conditions.length > 0
      ? { matchConditions: compileMatchConditions(conditions, { params: hasParams }) }
      : {}),
    variables: composed.variables,
    mutations: objectsOf(spec.mutations).map((m) => {
      const apply = m.patchType === "ApplyConfiguration";
      const holder = (apply ? m.applyConfiguration : m.jsonPatch) as Obj | undefined;
      const source = String(holder?.expression ?? "");
      return {
        patchType: apply ? "ApplyConfiguration" : "JSONPatch",
        expression: compileAdmission(source, {
          ...vars,
          patchTypes: true,
          returnTypes: [apply ? "map" : "list"],
        }),
      };
    }),
  };
}

/** JSON numbers from the evaluator's values (ints are bigints there). */
function toJson(v: unknown): unknown {
  if (typeof v === "bigint") return Number(v);
  if (Array.isArray(v)) return v.map(toJson);
  if (v instanceof Map) return Object.fromEntries([...v.entries()].map(([k, x]) => [String(k), toJson(x)]));
  if (isObj(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toJson(x)]));
  return v;
}

function applyPatch(object: Obj, ops: unknown): Obj {
  if (!Array.isArray(ops))
    throw new Error("type mismatch: JSONPatchType.expression should evaluate to array");
  try {
    return applyJsonPatch(object, toJson(ops)) as Obj;
  } catch (e) {
    const text = e instanceof StatusError ? (e.status.message ?? "") : String(e);
    if (text.endsWith("test operation failed")) return object;
    throw new Error(
      `JSON Patch: ${text.replace(/^the server rejected our request due to an error in our request: /, "")}`,
    );
  }
}

/**
 * Applies the invocation's mutations; resolves to the mutated object (the same one when nothing
 * matched), or rejects with an Error whose message is the reason the invocation failed. `pacer`
 * (shared by the request's invocations) gives the loop back between expensive expressions.
 */
export async function mutate(
  p: CompiledMutatingPolicy,
  input: AdmissionInput,
  merge: ApplyMerge,
  pacer: CostPacer = new CostPacer(),
): Promise<Obj> {
  let object = input.object as Obj;
  if (p.matchConditions) {
    const matched = await pacer.match(p.matchConditions, input, p.failurePolicy, p.hasParams);
    if ("error" in matched) throw new Error(matched.error);
    if (!matched.matches) return object;
  }
  for (const m of p.mutations) {
    if (!m.expression.ok) throw new Error(m.expression.detail);
    const act = new AdmissionActivation(
      { ...input, object },
      { params: p.hasParams, authorizer: true, patchTypes: true },
      p.variables,
    );
    const expression = m.expression;
    const out = await pacer.run(act, () => act.evaluate(expression));
    if (!out.ok) throw new Error(out.error);
    if (m.patchType === "JSONPatch") object = applyPatch(object, out.value);
    else if (out.value instanceof Map || isObj(out.value))
      object = merge(object, toJson(out.value) as Obj, input.request.kind);
    else throw new Error("unsupported return type from ApplyConfiguration expression");
  }
  return object;
}
