/**
 * Status conditions (`metav1.Condition`).
 *
 * Contract of {@link setCondition}: returns a new list where the condition of `type` has the given
 * status, reason, message and observedGeneration; its `lastTransitionTime` is kept when the status
 * did not change and set to `now` (RFC 3339, seconds) when it did or the condition is new. Other
 * conditions are kept as they are, in order.
 */
import type { metaV1 } from "@kubesdk/models";
import { time } from "./time-format.js";

export type ConditionStatus = "True" | "False" | "Unknown";

export interface ConditionInput {
  readonly type: string;
  readonly status: ConditionStatus;
  /** CamelCase machine-readable reason (required by the API). */
  readonly reason: string;
  readonly message?: string;
  readonly observedGeneration?: number;
}

export function findCondition(
  conditions: readonly metaV1.Condition[] | undefined,
  type: string,
): metaV1.Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

export function isConditionTrue(conditions: readonly metaV1.Condition[] | undefined, type: string): boolean {
  return findCondition(conditions, type)?.status === "True";
}

export function setCondition(
  conditions: readonly metaV1.Condition[] | undefined,
  input: ConditionInput,
  now: Date = new Date(),
): metaV1.Condition[] {
  const list = [...(conditions ?? [])];
  const existing = list.findIndex((c) => c.type === input.type);
  const previous = existing >= 0 ? list[existing] : undefined;
  const condition: metaV1.Condition = {
    type: input.type,
    status: input.status,
    reason: input.reason,
    message: input.message ?? "",
    lastTransitionTime:
      previous !== undefined && previous.status === input.status ? previous.lastTransitionTime : time(now),
    ...(input.observedGeneration !== undefined ? { observedGeneration: input.observedGeneration } : {}),
  };
  if (existing >= 0) list[existing] = condition;
  else list.push(condition);
  return list;
}

/** Removes the condition of `type`. */
export function removeCondition(
  conditions: readonly metaV1.Condition[] | undefined,
  type: string,
): metaV1.Condition[] {
  return (conditions ?? []).filter((c) => c.type !== type);
}
