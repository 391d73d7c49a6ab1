/**
 * A PersistentVolumeClaim's /status write as kube-apiserver 1.37 validates it
 * (ValidatePersistentVolumeClaimStatusUpdate): capacities are non-negative quantities, only storage
 * is allocated (non-negative), and its resize status is a known one. Upstream reports an unknown
 * resize status with the resource's name as the value; so does this.
 */
import { type FieldError, invalid, notSupported, obj } from "../../validation/field-errors.js";
import { type Quantity, quantityValue } from "../../validation/quantity-value.js";

type Json = Record<string, unknown>;

const RESIZE_STATUSES = [
  "ControllerResizeInProgress",
  "ControllerResizeInfeasible",
  "NodeResizeInProgress",
  "NodeResizeInfeasible",
  "NodeResizePending",
];

/** Quantity.Value(): the integer value, rounded away from zero. */
function integerValue(q: Quantity): number {
  const whole = q.num / q.den;
  const exact = whole * q.den === q.num;
  return Number(exact ? whole : whole + (q.negative ? -1n : 1n));
}

/** validateBasicResource: a quantity whose value is not negative. */
function basicResourceErrors(text: unknown, field: string): FieldError[] {
  const q = typeof text === "string" ? quantityValue(text) : undefined;
  if (!q) return [];
  const value = integerValue(q);
  return value < 0 ? [invalid(field, value, "must be a valid resource quantity")] : [];
}

export function claimStatusErrors(claim: Json): FieldError[] {
  const status = obj(claim.status);
  const out = Object.entries(obj(status.capacity)).flatMap(([name, q]) =>
    basicResourceErrors(q, `status.capacity[${name}]`),
  );
  for (const [name, q] of Object.entries(obj(status.allocatedResources)))
    if (name !== "storage") out.push(notSupported("status.allocatedResources", name, ["storage"]));
    else out.push(...basicResourceErrors(q, `status.allocatedResources[${name}]`));
  // Both checks run for every entry (unlike allocatedResources, where a foreign key stops there).
  for (const [name, value] of Object.entries(obj(status.allocatedResourceStatuses))) {
    if (name !== "storage") out.push(notSupported("status.allocatedResourceStatuses", name, ["storage"]));
    if (typeof value !== "string" || !RESIZE_STATUSES.includes(value))
      out.push(notSupported("status.allocatedResourceStatuses", name, RESIZE_STATUSES));
  }
  return out;
}
