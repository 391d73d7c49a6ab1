/** matchConditions: CEL expressions that must all be true for the webhook to be called. */
import type { AdmissionAttributes } from "../attributes.js";
import type { Webhook } from "./configurations.js";

export function matchConditionsSelect(
  w: Webhook,
  _a: AdmissionAttributes,
  _object: Record<string, unknown> | undefined,
): boolean {
  return w.matchConditions.length === 0;
}
