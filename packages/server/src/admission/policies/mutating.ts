/**
 * The MutatingAdmissionPolicy admission plugin (mutating phase), as upstream dispatches: every
 * (policy, binding, param) invocation whose policy and binding select the request mutates the
 * object in turn. Reinvocation as upstream (../reinvocation.ts): when an invocation (or, before the
 * policies' second run, any other mutating plugin) changes the object, the IfNeeded invocations
 * made before the change run once more in the chain's second run of the mutating phase. Failures
 * (configuration, evaluation, patch) under failurePolicy Fail refuse the request with
 * `policy '<p>' with binding '<b>' denied request: <why>` (code 403; reason Invalid for a failed
 * mutation, Forbidden for a configuration error).
 */
import { isDeepStrictEqual } from "node:util";
import { failure } from "../../api/status.js";
import type { AdmissionAttributes } from "../attributes.js";
import type { AdmissionContext } from "../context.js";
import type { AdmissionPlugin } from "../plugin.js";
import { PluginReinvocation } from "../reinvocation.js";
import { isObj, nameOf, type Obj } from "./json.js";
import { isExemptFromPolicies, matchResourcesSelect } from "./matching.js";
import {
  type ApplyMerge,
  type CompiledMutatingPolicy,
  compileMutatingPolicy,
  mutate,
} from "./mutating-policy.js";
import { collectParams, gvkText, type ParamResource, resolveParamKind } from "./params.js";
import { PolicySource } from "./policy-source.js";
import { admissionInput } from "./request-input.js";

const GROUP = "admissionregistration.k8s.io";
const PLUGIN = "MutatingAdmissionPolicy";

interface Invocation {
  readonly policy: CompiledMutatingPolicy;
  readonly binding: Obj;
  readonly param: unknown;
  readonly key: string;
}

interface PolicyFailure {
  readonly message: string;
  readonly reason: "Invalid" | "Forbidden";
}

/** Untyped merge (maps merge, everything else replaces): when no typed merge is given. */
const plainMerge: ApplyMerge = (object, applied, kind) => {
  const out: Obj = { ...object };
  for (const [k, v] of Object.entries(applied))
    out[k] = isObj(v) && isObj(object[k]) ? plainMerge(object[k] as Obj, v, kind) : v;
  return out;
};

/** The invocations of the request, and the configuration failures found while collecting them. */
function invocationsOf(
  policies: ReturnType<PolicySource<CompiledMutatingPolicy>["active"]>,
  a: AdmissionAttributes,
  ctx: AdmissionContext,
  failures: PolicyFailure[],
): Invocation[] {
  const out: Invocation[] = [];
  for (const { compiled: p, bindings } of policies) {
    if (!matchResourcesSelect(p.spec.matchConstraints, a, ctx)) continue;
    const fail = (message: string) => {
      if (p.failurePolicy === "Fail") failures.push({ message, reason: "Forbidden" });
    };
    const paramKind = isObj(p.spec.paramKind) ? p.spec.paramKind : undefined;
    let resource: ParamResource | undefined;
    if (paramKind) {
      resource = resolveParamKind(paramKind, ctx);
      if (!resource) {
        fail(
          `policy "${p.name}" denied request: failed to configure policy: failed to find resource referenced by paramKind: '${gvkText(paramKind)}'`,
        );
        continue;
      }
    }
    for (const binding of bindings) {
      const spec = isObj(binding.spec) ? binding.spec : {};
      if (!matchResourcesSelect(spec.matchResources, a, ctx)) continue;
      const params = collectParams(resource, spec.paramRef, a.namespace, ctx);
      const prefix = `policy '${p.name}' with binding '${nameOf(binding)}' denied request`;
      if (!params.ok) {
        fail(`${prefix}: failed to configure binding: ${params.error}`);
        continue;
      }
      for (const param of params.params) {
        const paramName = isObj(param)
          ? `${String((param.metadata as Obj | undefined)?.namespace ?? "")}/${nameOf(param)}`
          : "";
        out.push({ policy: p, binding, param, key: `${p.name}\0${nameOf(binding)}\0${paramName}` });
      }
    }
  }
  return out;
}

/** The plugin; `merge` is the server's typed apply merge (the untyped one when not given). */
export function mutatingAdmissionPolicy(merge: ApplyMerge = plainMerge): AdmissionPlugin {
  const source = new PolicySource(
    { policies: `${GROUP}/mutatingadmissionpolicies`, bindings: `${GROUP}/mutatingadmissionpolicybindings` },
    compileMutatingPolicy,
  );
  return {
    name: PLUGIN,
    handles: () => true,
    admit(a, ctx) {
      if (isExemptFromPolicies(a) || !a.object) return;
      const failures: PolicyFailure[] = [];
      const invocations = invocationsOf(source.active(ctx), a, ctx, failures);
      const r = PluginReinvocation.of(a.reinvocation, PLUGIN);
      r.begin(a.object);
      let object = a.object;
      for (const inv of invocations) {
        if (!r.shouldInvoke(inv.key)) continue;
        let changed = false;
        try {
          const next = mutate(inv.policy, admissionInput({ ...a, object }, ctx, inv.param), merge);
          changed = !isDeepStrictEqual(next, object);
          if (changed) object = next;
        } catch (e) {
          if (inv.policy.failurePolicy === "Fail")
            failures.push({
              message: `policy '${inv.policy.name}' with binding '${nameOf(inv.binding)}' denied request: ${(e as Error).message}`,
              reason: "Invalid",
            });
        }
        r.invoked(inv.key, changed, inv.policy.reinvoke);
      }
      r.end(object);
      const first = failures[0];
      if (first) throw policyFailure(a, first, failures);
      if (object === a.object) return;
      // The chain's object is changed in place, as plugins of the mutating phase do.
      for (const k of Object.keys(a.object)) delete a.object[k];
      Object.assign(a.object, object);
    },
  };
}

/** Upstream's Status for failed policies: Forbidden's shape, the first failure as the message. */
function policyFailure(a: AdmissionAttributes, first: PolicyFailure, all: readonly PolicyFailure[]) {
  const q = { group: a.resource.group, resource: a.resource.resource };
  const meta = (a.object?.metadata ?? {}) as Obj;
  const name = a.name || String(meta.name || meta.generateName || "Unknown");
  return failure(403, first.reason, first.message, {
    name,
    ...(q.group ? { group: q.group } : {}),
    kind: q.resource,
    causes: all.map((f) => ({ message: f.message })),
  });
}
