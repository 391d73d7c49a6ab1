/**
 * MutatingAdmissionWebhook: matching mutating webhooks are called one after another, each seeing
 * the object as the ones before left it; a JSONPatch answer is applied to the request's object.
 * Reinvocation as upstream (../reinvocation.ts): when a webhook (or, before the webhooks' second
 * run, any other mutating plugin) changes the object, webhooks with reinvocationPolicy IfNeeded
 * called before the change are called once more in the chain's second run of the mutating phase.
 * Synchronous when no webhook matches, so ordinary writes still commit in one turn.
 */
import { isDeepStrictEqual } from "node:util";
import { CostPacer } from "../../cel/admission/index.js";
import type { AdmissionAttributes } from "../attributes.js";
import type { AdmissionContext } from "../context.js";
import { inRequestVersion, versionedAttributes } from "../equivalent.js";
import { type AdmissionPlugin, handlesOnly } from "../plugin.js";
import { PluginReinvocation } from "../reinvocation.js";
import { type Webhook, webhooksOf } from "./configurations.js";
import { callWebhook, failureOf } from "./invoke.js";
import { matchConditionsSelect } from "./match-conditions.js";
import { isExempt, matchedVersion, selects } from "./matching.js";
import { patchedObject } from "./patching.js";

type Json = Record<string, unknown>;

/** Replaces the request's object in place: the handler keeps its reference to it. */
function replaceObject(target: Json, next: Json): void {
  for (const key of Object.keys(target)) delete target[key];
  Object.assign(target, next);
}

/**
 * Set when a new object is stored (upstream: after mutating admission), so on CREATE a webhook
 * neither sees nor changes them; the server sets them earlier.
 */
const SET_ON_STORE = ["uid", "creationTimestamp"];

/** The object as a webhook is shown it. */
function shownObject(a: AdmissionAttributes): Json | undefined {
  if (a.operation !== "CREATE" || a.object === undefined) return a.object;
  const metadata = { ...((a.object.metadata ?? {}) as Json) };
  for (const key of SET_ON_STORE) delete metadata[key];
  return { ...a.object, metadata };
}

/** The patched object with the fields a webhook may not set on CREATE as the server set them. */
function keepStoreFields(a: AdmissionAttributes, next: Json): Json {
  if (a.operation !== "CREATE") return next;
  const before = (a.object?.metadata ?? {}) as Json;
  const metadata = { ...((next.metadata ?? {}) as Json) };
  for (const key of SET_ON_STORE)
    if (before[key] === undefined) delete metadata[key];
    else metadata[key] = before[key];
  return { ...next, metadata };
}

/**
 * Calls `w` with `va`, the request `a` as seen for the webhook's version (`a` itself, or converted
 * under matchPolicy Equivalent); true when its patch changed the request's object.
 */
async function mutateWith(
  w: Webhook,
  a: AdmissionAttributes,
  va: AdmissionAttributes,
  ctx: AdmissionContext,
): Promise<boolean> {
  const shown = shownObject(va);
  let response: Awaited<ReturnType<typeof callWebhook>>;
  try {
    response = await callWebhook(w, va, shown, true, ctx);
  } catch (e) {
    const failure = failureOf(w, e);
    if (failure) throw failure;
    return false;
  }
  if (response.patch === undefined) return false;
  let next: Json | undefined;
  try {
    next = patchedObject(w, va, shown, { patch: response.patch, patchType: response.patchType });
  } catch (e) {
    const failure = failureOf(w, e);
    if (failure) throw failure;
    return false;
  }
  if (next === undefined || a.object === undefined) return false;
  next = keepStoreFields(va, next);
  if (va !== a) next = await inRequestVersion(a, next);
  const changed = !isDeepStrictEqual(next, a.object);
  if (changed) replaceObject(a.object, next);
  return changed;
}

const PLUGIN = "MutatingAdmissionWebhook";

async function mutate(
  hooks: readonly Webhook[],
  a: AdmissionAttributes,
  ctx: AdmissionContext,
): Promise<void> {
  const r = PluginReinvocation.of(a.reinvocation, PLUGIN);
  r.begin(a.object);
  const pacer = new CostPacer();
  for (const w of hooks) {
    if (!r.shouldInvoke(w.uid)) continue;
    const version = matchedVersion(w, a, ctx);
    if (version === undefined) continue;
    const va = version === a.resource.version ? a : await versionedAttributes(a, version);
    if (!(await matchConditionsSelect(w, va, shownObject(va), pacer))) continue;
    r.invoked(w.uid, await mutateWith(w, a, va, ctx), w.reinvocationPolicy === "IfNeeded");
  }
  r.end(a.object);
}

export const mutatingAdmissionWebhook: AdmissionPlugin = {
  name: PLUGIN,
  handles: handlesOnly("CREATE", "UPDATE", "DELETE", "CONNECT"),
  admit(a, ctx) {
    if (isExempt(a)) return;
    const hooks = webhooksOf("mutating", ctx);
    if (!hooks.some((w) => selects(w, a, ctx))) return;
    return mutate(hooks, a, ctx);
  },
};
