/**
 * CSINodes: DELETE answers with the object. Each driver has a CSI driver name (unique), a node id of
 * at most 256 characters, a non-negative allocatable count and unique qualified topology keys; a
 * driver's entry never changes but for its allocatable count.
 */
import type { FieldError } from "../../api/status.js";
import {
  arr,
  duplicate,
  FieldErrors,
  immutable,
  invalid,
  type Json,
  obj,
  required,
  sameValue,
  str,
  strs,
} from "../../validation/field-errors.js";
import { qualifiedNameProblems } from "../../validation/object-meta.js";
import { type KindStrategy, RESET_FOR_STATUS } from "../strategy.js";
import { csiDriverNameErrors } from "./storage-rules.js";

function driverErrors(d: Json, field: string, names: Set<string>, out: FieldErrors): void {
  const name = str(d.name);
  csiDriverNameErrors(name, `${field}.name`, out);
  const nodeID = str(d.nodeID);
  if (nodeID === "") out.add(required(`${field}.nodeID`));
  if (nodeID.length > 256) out.add(invalid(`${field}.nodeID`, nodeID, "must be 256 characters or less"));
  const count = obj(d.allocatable).count;
  if (typeof count === "number" && count < 0)
    out.add(invalid(`${field}.allocatable.count`, count, "must be greater than or equal to 0"));
  if (names.has(name)) out.add(duplicate(`${field}.name`, name));
  names.add(name);
  const keys = new Set<string>();
  for (const key of strs(d.topologyKeys)) {
    if (key === "") out.add(required(field));
    if (keys.has(key)) out.add(duplicate(field, key));
    keys.add(key);
    out.add(...qualifiedNameProblems(key).map((m) => invalid(field, key, m)));
  }
}

function csiNodeErrors(node: Json, old: Json | undefined): FieldError[] {
  const out = new FieldErrors();
  const drivers = arr(obj(node.spec).drivers).map(obj);
  const names = new Set<string>();
  drivers.forEach((d, i) => {
    driverErrors(d, `spec.drivers[${i}]`, names, out);
  });
  if (old)
    for (const before of arr(obj(old.spec).drivers).map(obj))
      for (const now of drivers) {
        if (str(now.name) !== str(before.name)) continue;
        const { allocatable: _a, ...a } = now;
        const { allocatable: _b, ...b } = before;
        if (!sameValue(a, b)) out.add(immutable("spec.drivers", a));
      }
  return out.list();
}

export const csinodes: KindStrategy = {
  group: "storage.k8s.io",
  resource: "csinodes",
  statusResetsMetadata: RESET_FOR_STATUS,
  returnsDeletedObject: true,
  validate: csiNodeErrors,
};
