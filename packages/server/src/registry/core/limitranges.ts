/**
 * LimitRanges: a Container limit's default limit comes from its max, and its default request from
 * the default limit, then from its min. An unnamed LimitRange is named with a random UUID, as
 * upstream's strategy does. Validated as ValidateLimitRange (limitrange-rules.ts).
 */
import { randomUUID } from "node:crypto";
import { objectAt } from "../../validation/field-errors.js";
import { isObj, type Obj, set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";
import { limitRangeErrors } from "./limitrange-rules.js";

/** Copies into `to` (created when needed, left out when empty) each amount of `from` it lacks. */
function fillAmounts(item: Obj, to: string, from: string): void {
  const source = item[from];
  if (!isObj(source)) return;
  const target = isObj(item[to]) ? (item[to] as Obj) : {};
  for (const [k, v] of Object.entries(source)) set(target, k, v);
  if (Object.keys(target).length > 0) item[to] = target;
}

export const limitranges: KindStrategy = {
  group: "",
  resource: "limitranges",
  defaults(obj) {
    const limits = (obj.spec as Obj | undefined)?.limits;
    if (!Array.isArray(limits)) return;
    for (const item of limits) {
      if (!isObj(item) || item.type !== "Container") continue;
      fillAmounts(item, "default", "max");
      fillAmounts(item, "defaultRequest", "default");
      fillAmounts(item, "defaultRequest", "min");
    }
  },
  prepareCreate(obj) {
    const metadata = obj.metadata as Record<string, unknown>;
    if (!metadata.name) metadata.name = randomUUID();
  },
  validate: (obj) => limitRangeErrors(objectAt(obj.spec)),
};
