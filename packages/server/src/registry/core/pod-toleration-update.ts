/**
 * A Pod update's tolerations (validateOnlyAddedTolerations upstream): every existing toleration
 * stays, only its tolerationSeconds may change; new ones may be added. The list is then checked
 * once more with the toleration rules, as upstream does (its errors show twice).
 */
import { type FieldError, forbidden, listAt, objectAt, stringAt } from "../../validation/field-errors.js";
import { tolerationsErrors } from "../../validation/tolerations.js";

/** A toleration without its tolerationSeconds, as Go's DeepEqual on the rest compares it. */
const sansSeconds = (t: unknown): string => {
  const o = objectAt(t);
  return JSON.stringify([o.key, o.operator, o.value, o.effect].map(stringAt));
};

export function tolerationUpdateErrors(now: unknown, before: unknown, at: string): FieldError[] {
  const kept = new Set(listAt(now).map(sansSeconds));
  if (listAt(before).some((t) => !kept.has(sansSeconds(t))))
    return [forbidden(at, "existing toleration can not be modified except its tolerationSeconds")];
  return tolerationsErrors(now, at);
}
