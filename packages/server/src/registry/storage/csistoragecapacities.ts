/**
 * CSIStorageCapacities: a valid node topology selector, a storage class name that is a DNS
 * subdomain, a non-negative capacity; the topology and the class never change.
 */
import type { FieldError } from "../../api/status.js";
import { invalid, type Json, sameValue, str } from "../../validation/field-errors.js";
import { dns1123SubdomainProblems } from "../../validation/name-formats.js";
import { labelSelectorErrors } from "../../validation/selector-rules.js";
import type { KindStrategy } from "../strategy.js";

function capacityErrors(c: Json, old: Json | undefined): FieldError[] {
  const oldSelectorInvalid = old !== undefined && labelSelectorErrors(old.nodeTopology, "").length > 0;
  const errs = labelSelectorErrors(c.nodeTopology, "nodeTopology", {
    allowInvalidLabelValues: oldSelectorInvalid,
  });
  const sc = str(c.storageClassName);
  errs.push(...dns1123SubdomainProblems(sc).map((m) => invalid("storageClassName", sc, m)));
  if (typeof c.capacity === "string" && c.capacity.trim().startsWith("-"))
    errs.push(invalid("capacity", c.capacity, "must be greater than or equal to 0"));
  if (old) {
    if (!sameValue(c.nodeTopology, old.nodeTopology))
      errs.push(invalid("nodeTopology", c.nodeTopology ?? null, "field is immutable"));
    if (sc !== str(old.storageClassName)) errs.push(invalid("storageClassName", sc, "field is immutable"));
  }
  return errs;
}

export const csistoragecapacities: KindStrategy = {
  group: "storage.k8s.io",
  resource: "csistoragecapacities",
  validate: capacityErrors,
};
