/** PriorityClasses: preempt lower priorities by default. */
import { set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";

export const priorityclasses: KindStrategy = {
  group: "scheduling.k8s.io",
  resource: "priorityclasses",
  defaults(obj) {
    set(obj, "preemptionPolicy", "PreemptLowerPriority");
  },
};
