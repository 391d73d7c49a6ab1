/**
 * ValidatingAdmissionWebhook: every matching validating webhook is called at once on the final
 * object, after defaulting and validation; the request fails with the first failure in the
 * webhooks' order (upstream returns the first to arrive; the order here keeps answers stable).
 * Synchronous when no webhook matches, so ordinary writes still commit in one turn. A webhook
 * registered for another version of a custom resource (matchPolicy Equivalent) sees the object
 * converted to that version.
 */
import type { StatusError } from "../../api/status.js";
import { CostPacer } from "../../cel/admission/index.js";
import type { AdmissionAttributes } from "../attributes.js";
import type { AdmissionContext } from "../context.js";
import { versionedAttributes } from "../equivalent.js";
import { type AdmissionPlugin, handlesOnly } from "../plugin.js";
import { type Webhook, webhooksOf } from "./configurations.js";
import { callWebhook, failureOf } from "./invoke.js";
import { matchConditionsSelect } from "./match-conditions.js";
import { isExempt, matchedVersion } from "./matching.js";

interface Call {
  readonly w: Webhook;
  /** The request as the webhook sees it (converted to its version under matchPolicy Equivalent). */
  readonly a: AdmissionAttributes;
}

async function callAll(calls: readonly Call[], ctx: AdmissionContext): Promise<void> {
  const outcomes = await Promise.all(
    calls.map(({ w, a }) =>
      callWebhook(w, a, a.object, false, ctx).then(
        () => undefined,
        (e: unknown) => failureOf(w, e),
      ),
    ),
  );
  const first = outcomes.find((o): o is StatusError => o !== undefined);
  if (first) throw first;
}

/** The calls when some webhook is registered for another version: each sees the object converted. */
async function versionedCalls(
  matched: readonly { w: Webhook; version: string }[],
  a: AdmissionAttributes,
  ctx: AdmissionContext,
): Promise<void> {
  const calls: Call[] = [];
  const pacer = new CostPacer();
  for (const { w, version } of matched) {
    const va = version === a.resource.version ? a : await versionedAttributes(a, version);
    if (await matchConditionsSelect(w, va, va.object, pacer)) calls.push({ w, a: va });
  }
  return callAll(calls, ctx);
}

/** The webhooks whose conditions select the request (one pacer for the request's conditions). */
async function selectedCalls(hooks: readonly Webhook[], a: AdmissionAttributes): Promise<Call[]> {
  const calls: Call[] = [];
  const pacer = new CostPacer();
  for (const w of hooks) if (await matchConditionsSelect(w, a, a.object, pacer)) calls.push({ w, a });
  return calls;
}

export const validatingAdmissionWebhook: AdmissionPlugin = {
  name: "ValidatingAdmissionWebhook",
  handles: handlesOnly("CREATE", "UPDATE", "DELETE", "CONNECT"),
  validate(a, ctx) {
    if (isExempt(a)) return;
    const matched = webhooksOf("validating", ctx).flatMap((w) => {
      const version = matchedVersion(w, a, ctx);
      return version === undefined ? [] : [{ w, version }];
    });
    if (matched.some((m) => m.version !== a.resource.version)) return versionedCalls(matched, a, ctx);
    if (matched.length === 0) return;
    return selectedCalls(
      matched.map(({ w }) => w),
      a,
    ).then((calls) => (calls.length === 0 ? undefined : callAll(calls, ctx)));
  },
};
