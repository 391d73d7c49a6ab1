/**
 * The counter rules of workload statuses (apps and core validation's Validate<Kind>Status): counters
 * are non-negative, some may not exceed others, and a collision count only grows. A kind states
 * them as a table; upstream writes each out by hand in the same shape.
 */
import { type FieldError, invalid, isSet, nonNegative, num, obj } from "./field-errors.js";

type Json = Record<string, unknown>;

/** `field` may not exceed `bound` (both status fields), with upstream's message. */
export type CounterBound = readonly [field: string, bound: string, message: string];

export interface StatusCounterTable {
  /** Counters that may not be negative, in upstream's order. */
  readonly counters: readonly string[];
  readonly bounds?: readonly CounterBound[];
  /** Whether `status.collisionCount` may not go down on an update. */
  readonly collisionCountGrows?: boolean;
}

/** "cannot be greater than status.replicas", the common bound of replica counters. */
export const atMostReplicas = (field: string): CounterBound => [
  field,
  "replicas",
  "cannot be greater than status.replicas",
];

/** The table's errors for a /status write of `next` over `old`. */
export function statusCounterErrors(
  table: StatusCounterTable,
  next: Json,
  old: Json | undefined,
): FieldError[] {
  const status = obj(next.status);
  const out = table.counters.flatMap((c) => nonNegative(`status.${c}`, status[c]));
  for (const [field, bound, message] of table.bounds ?? [])
    if (num(status[field]) > num(status[bound]))
      out.push(invalid(`status.${field}`, num(status[field]), message));
  if (table.collisionCountGrows && old) {
    const before = obj(old.status).collisionCount;
    const now = status.collisionCount;
    // IsDecremented: a set count that went down or went away.
    if (isSet(before) && (!isSet(now) || num(now) < num(before)))
      out.push(invalid("status.collisionCount", num(now), "cannot be decremented"));
  }
  return out;
}
