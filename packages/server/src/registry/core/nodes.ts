/** Nodes: allocatable defaults to capacity; selectable by spec.unschedulable. */
import { isObj } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";

export const nodes: KindStrategy = {
  group: "",
  resource: "nodes",
  fieldLabels: ["spec.unschedulable"],
  defaults(obj) {
    // A node that reports capacity but no allocatable has all of its capacity allocatable.
    const status = obj.status;
    if (isObj(status) && isObj(status.capacity) && status.allocatable === undefined)
      status.allocatable = { ...status.capacity };
  },
};
