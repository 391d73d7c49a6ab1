/**
 * The /status write of a FlowSchema or PriorityLevelConfiguration as kube-apiserver 1.37 checks it
 * (ValidateFlowSchemaStatus, ValidatePriorityLevelConfigurationStatus): every condition has a type,
 * and no type (an empty one too) is listed twice. Nothing else of a condition is checked.
 */
import { duplicate, type FieldError, type Json, obj, required, str } from "../../validation/field-errors.js";

export function flowConditionErrors(o: Json, _old?: Json, subresource?: string): FieldError[] {
  if (subresource !== "status") return [];
  const conditions = obj(o.status).conditions;
  const seen = new Set<string>();
  const out: FieldError[] = [];
  (Array.isArray(conditions) ? conditions : []).forEach((raw, i) => {
    const type = str(obj(raw).type);
    const at = `status.conditions[${i}].type`;
    // An empty type counts as a type: two of them are a duplicate as well as missing.
    if (seen.has(type)) out.push(duplicate(at, type));
    if (type === "") out.push(required(at));
    seen.add(type);
  });
  return out;
}
