/**
 * The MutatingAdmissionPolicy admission plugin (mutating phase), as upstream dispatches: every
 * (policy, binding, param) invocation whose policy and binding select the request mutates the
 * object in turn. Reinvocation as upstream (../reinvocation.ts): when an invocation (or, before the
 * policies' second run, any other mutating plugin) changes the object, the IfNeeded invocations
 * made before the change run once more in the chain's second run of the mutating phase. Failures
 * (configuration, evaluation, patch) under failurePolicy Fail refuse the request with
 * `policy '<p>' with binding '<b>' denied request: <why>` (code 403; reason Invalid for a failed
 * mutation, Forbidden for a configuration error). A policy matching another version of a custom
 * resource (matchPolicy Equivalent) mutates the object converted to that version; the result is
 * converted back.
 */
import { isDeepStrictEqual } from "node:util";
import { setMember } from "@kubesdk/models/internal";
import { failure } from "../../api/status.js";
import { type AdmissionInput, CostPacer } from "../../cel/admission/index.js";
import type { AdmissionAttributes } from "../attributes.js";
import type { AdmissionContext } from "../context.js";
import { inRequestVersion, versionedAttributes } from "../equivalent.js";
import type { AdmissionPlugin } from "../plugin.js";
import { PluginReinvocation } from "../reinvocation.js";
import { errorText } from "./denial.js";
import { isObj, nameOf, type Obj } from "./json.js";
import { isExemptFromPolicies, matchedVersion, matchResourcesSelect } from "./matching.js";
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
  /** The version the policy matched the request in (another under matchPolicy Equivalent). */
  readonly version: string;
}

/** An invocation's outcome: the object after it, or why it failed. */
type Outcome = { readonly object: Obj } | { readonly error: string };

interface PolicyFailure {
  readonly message: string;
  readonly reason: "Invalid" | "Forbidden";
}

/** Untyped merge (maps merge, everything else replaces): when no typed merge is given. */
const plainMerge: ApplyMerge = (object, applied, kind) => {
  const out: Obj = { ...object };
  for (const [k, v] of Object.entries(applied))
    setMember(out, k, isObj(v) && isObj(object[k]) ? plainMerge(object[k] as Obj, v, kind) : v);
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
    const version = matchedVersion(p.spec.matchConstraints, a, ctx);
    if (version === undefined) continue;
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
        const key = `${p.name}\0${nameOf(binding)}\0${paramName}`;
        out.push({ policy: p, binding, param, key, version });
      }
    }
  }
  return out;
}

/** What every invocation of one request shares: read once, before any expression runs. */
interface Shared {
  readonly ctx: AdmissionContext;
  readonly merge: ApplyMerge;
  readonly pacer: CostPacer;
  /** The request's Namespace, as the first invocation saw it. */
  readonly namespace: AdmissionInput["namespace"];
}

/** One invocation on the request as `a` shows it. */
async function invoke(inv: Invocation, a: AdmissionAttributes, s: Shared): Promise<Outcome> {
  try {
    const input = { ...admissionInput(a, s.ctx, inv.param), namespace: s.namespace };
    return { object: await mutate(inv.policy, input, s.merge, s.pacer) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** One invocation on the object converted to the policy's version, its result converted back. */
async function invokeConverted(
  inv: Invocation,
  a: AdmissionAttributes & { readonly object: Obj },
  s: Shared,
): Promise<Outcome> {
  let view: AdmissionAttributes;
  try {
    view = await versionedAttributes(a, inv.version);
  } catch (e) {
    return { error: `failed to convert object version: ${errorText(e)}` };
  }
  const out = await invoke(inv, view, s);
  if ("error" in out) return out;
  return { object: out.object === view.object ? a.object : await inRequestVersion(a, out.object) };
}

/**
 * Runs the invocations in order on the chain's object, recording each for reinvocation; the
 * object is changed in place at the end, or the first failure thrown. Synchronous when there is
 * nothing to invoke; otherwise expensive expressions and conversions give the loop back in
 * between, and the chain's object is not read again meanwhile.
 */
function runInvocations(
  invocations: readonly Invocation[],
  a: AdmissionAttributes & { readonly object: Obj },
  s: Shared,
  failures: PolicyFailure[],
): void | Promise<void> {
  const r = PluginReinvocation.of(a.reinvocation, PLUGIN);
  r.begin(a.object);
  const finish = (object: Obj) => {
    r.end(object);
    const first = failures[0];
    if (first) throw policyFailure(a, first, failures);
    if (object === a.object) return;
    // The chain's object is changed in place, as plugins of the mutating phase do.
    for (const k of Object.keys(a.object)) delete a.object[k];
    Object.assign(a.object, object);
  };
  if (invocations.length === 0) return finish(a.object);
  const run = async () => {
    let object = a.object;
    for (const inv of invocations) {
      if (!r.shouldInvoke(inv.key)) continue;
      const out =
        inv.version !== a.resource.version
          ? await invokeConverted(inv, { ...a, object }, s)
          : await invoke(inv, { ...a, object }, s);
      const changed = "object" in out && !isDeepStrictEqual(out.object, object);
      if ("object" in out && changed) object = out.object;
      if ("error" in out && inv.policy.failurePolicy === "Fail")
        failures.push({
          message: `policy '${inv.policy.name}' with binding '${nameOf(inv.binding)}' denied request: ${out.error}`,
          reason: "Invalid",
        });
      r.invoked(inv.key, changed, inv.policy.reinvoke);
    }
    finish(object);
  };
  return run();
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
      const object = a.object;
      if (isExemptFromPolicies(a) || !object) return;
      const failures: PolicyFailure[] = [];
      const invocations = invocationsOf(source.active(ctx), a, ctx, failures);
      // Nothing to invoke and nothing failed: runInvocations would leave the object and the
      // reinvocation state as they are (a plugin without IfNeeded invocations keeps no output).
      if (invocations.length === 0 && failures.length === 0) return;
      // What invocations share is read only when there are some: nearly every request has none.
      const namespace = invocations.length > 0 ? admissionInput(a, ctx).namespace : undefined;
      const shared = { ctx, merge, pacer: new CostPacer(), namespace };
      return runInvocations(invocations, { ...a, object }, shared, failures);
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
