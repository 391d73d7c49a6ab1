/**
 * ValidatingAdmissionWebhook: every matching validating webhook is called at once on the final
 * object, after defaulting and validation; the request fails with the first failure in the
 * webhooks' order (upstream returns the first to arrive; the order here keeps answers stable).
 * Synchronous when no webhook matches, so ordinary writes still commit in one turn.
 */
import type { StatusError } from "../../api/status.js";
import type { AdmissionAttributes } from "../attributes.js";
import type { AdmissionContext } from "../context.js";
import { type AdmissionPlugin, handlesOnly } from "../plugin.js";
import { webhooksOf } from "./configurations.js";
import { matchesExactly, versionedRequest } from "./equivalent.js";
import { callWebhook, failureOf } from "./invoke.js";
import { matchConditionsSelect } from "./match-conditions.js";
import { isExempt, selects } from "./matching.js";

async function callAll(
  hooks: ReturnType<typeof webhooksOf>,
  a: AdmissionAttributes,
  ctx: AdmissionContext,
): Promise<void> {
  const outcomes = await Promise.all(
    hooks.map(async (w) => {
      try {
        // A webhook matched through an equivalent version: its matchConditions see the converted object.
        const { attributes: v } = await versionedRequest(w, a, ctx);
        if (v !== a && !matchConditionsSelect(w, v, v.object)) return undefined;
        await callWebhook(w, v, v.object, false, ctx);
        return undefined;
      } catch (e) {
        return failureOf(w, e);
      }
    }),
  );
  const first = outcomes.find((o): o is StatusError => o !== undefined);
  if (first) throw first;
}

export const validatingAdmissionWebhook: AdmissionPlugin = {
  name: "ValidatingAdmissionWebhook",
  handles: handlesOnly("CREATE", "UPDATE", "DELETE", "CONNECT"),
  validate(a, ctx) {
    if (isExempt(a)) return;
    // Exact matches are judged here, so that a request no webhook is called for stays synchronous.
    const hooks = webhooksOf("validating", ctx).filter(
      (w) => selects(w, a, ctx) && (!matchesExactly(w, a, ctx) || matchConditionsSelect(w, a, a.object)),
    );
    if (hooks.length === 0) return;
    return callAll(hooks, a, ctx);
  },
};
