/**
 * MutatingAdmissionWebhook: matching mutating webhooks are called one after another, each seeing
 * the object as the ones before left it; a JSONPatch answer is applied to the request's object.
 * Reinvocation as upstream: when a webhook changes the object, webhooks with
 * reinvocationPolicy IfNeeded called before it are called once more in a second round (never a
 * third, so a webhook that always changes the object cannot loop).
 * Synchronous when no webhook matches, so ordinary writes still commit in one turn.
 */
import { isDeepStrictEqual } from "node:util";
import type { AdmissionAttributes } from "../attributes.js";
import type { AdmissionContext } from "../context.js";
import { type AdmissionPlugin, handlesOnly } from "../plugin.js";
import { type Webhook, webhooksOf } from "./configurations.js";
import { callWebhook, failureOf } from "./invoke.js";
import { matchConditionsSelect } from "./match-conditions.js";
import { isExempt, selects } from "./matching.js";
import { patchedObject } from "./patching.js";

type Json = Record<string, unknown>;

/** Which webhooks a change calls again (upstream's webhook reinvocation context). */
class Reinvocation {
  private invoked = new Set<string>();
  readonly again = new Set<string>();
  changed = false;

  noteCall(w: Webhook, changed: boolean): void {
    if (changed) {
      this.changed = true;
      for (const uid of this.invoked) this.again.add(uid);
      this.invoked.clear();
    }
    if (w.reinvocationPolicy === "IfNeeded") this.invoked.add(w.uid);
  }
}

/** Replaces the request's object in place: the handler keeps its reference to it. */
function replaceObject(target: Json, next: Json): void {
  for (const key of Object.keys(target)) delete target[key];
  Object.assign(target, next);
}

/** Calls `w`; true when its patch changed the object. */
async function mutateWith(w: Webhook, a: AdmissionAttributes, ctx: AdmissionContext): Promise<boolean> {
  let response: Awaited<ReturnType<typeof callWebhook>>;
  try {
    response = await callWebhook(w, a, a.object, true, ctx);
  } catch (e) {
    const failure = failureOf(w, e);
    if (failure) throw failure;
    return false;
  }
  if (response.patch === undefined) return false;
  let next: Json | undefined;
  try {
    next = patchedObject(w, a, response.patch, response.patchType);
  } catch (e) {
    const failure = failureOf(w, e);
    if (failure) throw failure;
    return false;
  }
  if (next === undefined || a.object === undefined) return false;
  const changed = !isDeepStrictEqual(next, a.object);
  if (changed) replaceObject(a.object, next);
  return changed;
}

async function round(
  hooks: readonly Webhook[],
  a: AdmissionAttributes,
  ctx: AdmissionContext,
  r: Reinvocation,
  only?: ReadonlySet<string>,
): Promise<void> {
  for (const w of hooks) {
    if (only && !only.has(w.uid)) continue;
    if (!selects(w, a, ctx) || !matchConditionsSelect(w, a, a.object)) continue;
    r.noteCall(w, await mutateWith(w, a, ctx));
  }
}

async function mutate(
  hooks: readonly Webhook[],
  a: AdmissionAttributes,
  ctx: AdmissionContext,
): Promise<void> {
  const r = new Reinvocation();
  await round(hooks, a, ctx, r);
  if (!r.changed || r.again.size === 0) return;
  await round(hooks, a, ctx, r, new Set(r.again));
}

export const mutatingAdmissionWebhook: AdmissionPlugin = {
  name: "MutatingAdmissionWebhook",
  handles: handlesOnly("CREATE", "UPDATE", "DELETE", "CONNECT"),
  admit(a, ctx) {
    if (isExempt(a)) return;
    const hooks = webhooksOf("mutating", ctx);
    if (!hooks.some((w) => selects(w, a, ctx))) return;
    return mutate(hooks, a, ctx);
  },
};
