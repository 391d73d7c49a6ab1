/**
 * The ValidatingAdmissionPolicy admission plugin (validating phase), as upstream dispatches: for
 * each policy whose matchConstraints select the request, each binding whose matchResources do,
 * each param the binding names — evaluate, and act on every Deny decision by the binding's
 * validationActions: Deny rejects (the first denial is the answer), Warn adds a `Warning`
 * (`Validation failed for ValidatingAdmissionPolicy '<p>' with binding '<b>': <message>`), Audit
 * would annotate the audit event (the server keeps no audit log). Configuration errors (param kind
 * unknown, params missing under parameterNotFoundAction Deny) follow the policy's failurePolicy.
 * A policy matching another version of a custom resource (matchPolicy Equivalent) evaluates the
 * object converted to that version, with `request.kind`/`resource` of it (a failed conversion is
 * a configuration error).
 */
import { type AdmissionInput, CostPacer } from "../../cel/admission/index.js";
import type { AdmissionAttributes } from "../attributes.js";
import type { AdmissionContext } from "../context.js";
import { versionedAttributes } from "../equivalent.js";
import type { AdmissionPlugin } from "../plugin.js";
import { errorText, policyDenial } from "./denial.js";
import { isObj, nameOf, type Obj } from "./json.js";
import { isExemptFromPolicies, matchedVersion, matchResourcesSelect } from "./matching.js";
import { collectParams, gvkText, type ParamResource, resolveParamKind } from "./params.js";
import { PolicySource } from "./policy-source.js";
import { admissionInput } from "./request-input.js";
import {
  type CompiledValidatingPolicy,
  compileValidatingPolicy,
  validatePolicy,
} from "./validating-policy.js";

const GROUP = "admissionregistration.k8s.io";

interface Denial {
  readonly message: string;
  readonly reason?: string;
}

interface Matched {
  readonly compiled: CompiledValidatingPolicy;
  readonly bindings: readonly Obj[];
  /** The version the policy matched the request in (another under matchPolicy Equivalent). */
  readonly version: string;
}

/** The request as each matched version sees it, converted once per version (a failure: its Error). */
async function versionedViews(
  a: AdmissionAttributes,
  versions: readonly string[],
): Promise<(version: string) => AdmissionAttributes | Error> {
  const views = new Map<string, AdmissionAttributes | Error>();
  for (const v of new Set(versions)) {
    if (v === a.resource.version) continue;
    views.set(v, await versionedAttributes(a, v).catch((e: unknown) => new Error(errorText(e))));
  }
  return (v) => views.get(v) ?? a;
}

/** What one policy does for the request: its configuration errors and its evaluations, in order. */
type Step =
  | { readonly error: string }
  | { readonly binding: Obj; readonly actions: readonly string[]; readonly input: AdmissionInput };

/**
 * Reads what one policy needs for the request (`view`: as the policy's version shows it, or why it
 * could not be converted) before any expression runs: the evaluations may give the loop back, and
 * the request must see one state of params and namespace. Bindings match the request itself.
 */
function planPolicy(
  p: CompiledValidatingPolicy,
  bindings: readonly Obj[],
  a: AdmissionAttributes,
  view: AdmissionAttributes | Error,
  ctx: AdmissionContext,
): Step[] {
  const configError = (message: string, binding?: Obj): Step[] => {
    if (p.failurePolicy === "Ignore") return [];
    const what = binding
      ? `failed to configure binding: ${message}`
      : `failed to configure policy: ${message}`;
    const by = binding ? ` with binding '${nameOf(binding)}'` : "";
    return [{ error: `ValidatingAdmissionPolicy '${p.name}'${by} denied request: ${what}` }];
  };
  if (view instanceof Error) return configError(`failed to convert object version: ${view.message}`);
  const paramKind = isObj(p.spec.paramKind) ? p.spec.paramKind : undefined;
  let paramResource: ParamResource | undefined;
  if (paramKind) {
    paramResource = resolveParamKind(paramKind, ctx);
    if (!paramResource)
      return configError(`failed to find resource referenced by paramKind: '${gvkText(paramKind)}'`);
  }
  return bindings.flatMap((binding): Step[] => {
    const spec = isObj(binding.spec) ? binding.spec : {};
    if (!matchResourcesSelect(spec.matchResources, a, ctx)) return [];
    const params = collectParams(paramResource, spec.paramRef, a.namespace, ctx);
    if (!params.ok) return configError(params.error, binding);
    const actions = Array.isArray(spec.validationActions) ? spec.validationActions.map(String) : [];
    return params.params.map((param) => ({ binding, actions, input: admissionInput(view, ctx, param) }));
  });
}

/** Evaluates one policy's steps; pushes denials and warnings. */
async function dispatchPolicy(
  p: CompiledValidatingPolicy,
  steps: readonly Step[],
  a: AdmissionAttributes,
  pacer: CostPacer,
  denied: Denial[],
): Promise<void> {
  for (const step of steps) {
    if ("error" in step) {
      denied.push({ message: step.error });
      continue;
    }
    const { binding, actions } = step;
    const prefix = `ValidatingAdmissionPolicy '${p.name}' with binding '${nameOf(binding)}'`;
    const result = await validatePolicy(p, step.input, pacer);
    for (const d of result.decisions) {
      if (d.action !== "deny") continue;
      if (d.annotation || actions.includes("Deny"))
        denied.push({
          message: `${prefix} denied request: ${d.message}`,
          ...(d.reason ? { reason: d.reason } : {}),
        });
      if (!d.annotation && actions.includes("Warn"))
        a.warnings?.push(
          `Validation failed for ValidatingAdmissionPolicy '${p.name}' with binding '${nameOf(binding)}': ${d.message}`,
        );
    }
  }
}

export function validatingAdmissionPolicy(): AdmissionPlugin {
  const source = new PolicySource(
    {
      policies: `${GROUP}/validatingadmissionpolicies`,
      bindings: `${GROUP}/validatingadmissionpolicybindings`,
    },
    compileValidatingPolicy,
  );
  return {
    name: "ValidatingAdmissionPolicy",
    handles: () => true,
    validate(a, ctx) {
      if (isExemptFromPolicies(a)) return;
      const matched: Matched[] = source.active(ctx).flatMap(({ compiled, bindings }) => {
        const version = matchedVersion(compiled.spec.matchConstraints, a, ctx);
        return version === undefined ? [] : [{ compiled, bindings, version }];
      });
      if (matched.length === 0) return;
      const decide = async (viewOf: (version: string) => AdmissionAttributes | Error) => {
        const plans = matched.map((m) => planPolicy(m.compiled, m.bindings, a, viewOf(m.version), ctx));
        const denied: Denial[] = [];
        const pacer = new CostPacer();
        for (const [i, m] of matched.entries())
          await dispatchPolicy(m.compiled, plans[i] ?? [], a, pacer, denied);
        const first = denied[0];
        if (first) throw policyDenial(a, first.message, first.reason);
      };
      // Conversions first (they may await), so that every policy is planned against one state.
      if (matched.every((m) => m.version === a.resource.version)) return decide(() => a);
      return versionedViews(
        a,
        matched.map((m) => m.version),
      ).then(decide);
    },
  };
}
