/**
 * Calling one webhook and judging its answer, shared by both plugins: the dry-run check against
 * sideEffects, the AdmissionReview round trip, the answer's checks, its warnings; then what the
 * failure policy makes of a failed call.
 */
import { errors, StatusError } from "../../api/status.js";
import type { AdmissionAttributes } from "../attributes.js";
import type { AdmissionContext } from "../context.js";
import { postReview } from "./call.js";
import type { Webhook } from "./configurations.js";
import { callFailure, dryRunUnsupported, rejection } from "./errors.js";
import { type ReviewResponse, reviewRequest, verifyResponse, WebhookCallError } from "./review.js";

const NO_SIDE_EFFECTS_ON_DRY_RUN = new Set(["None", "NoneOnDryRun"]);

/**
 * Calls `w` for `a` with `object` as the request's object. Resolves with the answer when the
 * webhook allowed the request; rejects with a WebhookCallError (the failure policy decides) or a
 * StatusError (a rejection, a dry run the webhook cannot take).
 */
export async function callWebhook(
  w: Webhook,
  a: AdmissionAttributes,
  object: Record<string, unknown> | undefined,
  mutating: boolean,
  ctx: AdmissionContext,
): Promise<ReviewResponse> {
  if (a.dryRun) {
    if (w.sideEffects === undefined) throw new WebhookCallError("Webhook SideEffects is nil");
    if (!NO_SIDE_EFFECTS_ON_DRY_RUN.has(w.sideEffects)) throw dryRunUnsupported(w.name);
  }
  if (!w.admissionReviewVersions.some((v) => v === "v1" || v === "v1beta1"))
    throw new WebhookCallError("webhook does not accept known AdmissionReview versions (v1, v1beta1)");
  const { uid, body } = reviewRequest(a, object);
  const answer = await postReview(w.clientConfig, w.timeoutSeconds, body, ctx);
  const response = verifyResponse(uid, mutating, answer);
  for (const warning of response.warnings) a.warnings?.push(warning);
  if (!response.allowed) throw rejection(w.name, response.result);
  return response;
}

/**
 * What a failed call means: nothing (undefined) under failurePolicy Ignore, else the request's
 * error. Rejections and other Status errors pass through whatever the policy.
 */
export function failureOf(w: Webhook, e: unknown): StatusError | undefined {
  if (e instanceof WebhookCallError)
    return w.failurePolicy === "Ignore" ? undefined : callFailure(w.name, e.message);
  if (e instanceof StatusError) return e;
  return errors.internal(e instanceof Error ? e.message : String(e));
}
