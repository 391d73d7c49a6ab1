/**
 * Nodes: allocatable defaults to capacity; `spec.unschedulable: false` is Go's omitted zero value,
 * so it is dropped and a node without it is selected by `spec.unschedulable=false`. Validated as
 * ValidateNode for the spec (taints unique by key and effect, each key, value and effect valid);
 * /status writes as node-status.ts.
 */
import {
  duplicate,
  type FieldError,
  goStruct,
  invalid,
  isObject,
  listAt,
  notSupported,
  objectAt,
  required,
  stringAt,
} from "../../validation/field-errors.js";
import { labelValueProblems, qualifiedNameProblems } from "../../validation/object-meta.js";
import type { KindStrategy } from "../strategy.js";
import { nodeStatusErrors } from "./node-status.js";

const EFFECTS = ["NoSchedule", "PreferNoSchedule", "NoExecute"];

function taintErrors(taints: unknown): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  listAt(taints).forEach((raw, i) => {
    const t = objectAt(raw);
    const at = `metadata.taints[${i}]`;
    const key = stringAt(t.key);
    for (const m of qualifiedNameProblems(key)) out.push(invalid(`${at}.key`, key, m));
    const value = stringAt(t.value);
    const problems = labelValueProblems(value);
    if (problems.length > 0) out.push(invalid(`${at}.value`, value, problems.join(";")));
    const effect = stringAt(t.effect);
    if (effect === "") out.push(required(`${at}.effect`));
    else if (!EFFECTS.includes(effect)) out.push(notSupported(`${at}.effect`, effect, EFFECTS));
    const id = `${effect}\u0000${key}`;
    if (seen.has(id)) {
      const shown = goStruct([
        ["Key", key],
        ["Value", value],
        ["Effect", effect],
        ["TimeAdded", t.timeAdded ?? null],
      ]);
      out.push({ ...duplicate(at, shown), detail: "taints must be unique by key and effect pair" });
    } else seen.add(id);
  });
  return out;
}

export const nodes: KindStrategy = {
  group: "",
  resource: "nodes",
  fieldLabels: ["spec.unschedulable"],
  fieldLabelZeros: { "spec.unschedulable": "false" },
  defaults(obj) {
    if (isObject(obj.spec) && obj.spec.unschedulable === false) delete obj.spec.unschedulable;
    // A node that reports capacity but no allocatable has all of its capacity allocatable.
    const status = obj.status;
    if (isObject(status) && isObject(status.capacity) && status.allocatable === undefined)
      status.allocatable = { ...status.capacity };
  },
  validate: (obj, _old, subresource) =>
    subresource === "status" ? nodeStatusErrors(obj) : taintErrors(objectAt(obj.spec).taints),
};
