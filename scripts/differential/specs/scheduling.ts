/** Spec cases for scheduling.k8s.io: PriorityClass values, system names, preemption policies. */
import { int, type Random, type SpecGroup, type SpecVariant } from "./types.js";

function priorityClasses(rnd: Random): SpecVariant[] {
  const v = int(rnd, -1000, 1000000);
  return [
    ["valid", { value: v }],
    ["valid-max", { value: 1000000000 }],
    ["over-max", { value: 1000000001 }],
    ["system-range", { value: 2000000000 }],
    ["negative", { value: -v - 1 }],
    ["no-value", {}],
    ["preempt-never", { value: v, preemptionPolicy: "Never" }],
    ["preempt-bad", { value: v, preemptionPolicy: "Sometimes" }],
    ["preempt-empty", { value: v, preemptionPolicy: "" }],
    ["global-default", { value: v, globalDefault: false, description: "d" }],
  ];
}

export const scheduling: SpecGroup = {
  name: "scheduling",
  kinds: [
    { id: "scheduling.k8s.io/priorityclasses", variants: priorityClasses },
    {
      id: "scheduling.k8s.io/priorityclasses",
      name: "system-node-critical",
      variants: () => [["system-node-wrong-value", { value: 5 }]],
    },
    {
      id: "scheduling.k8s.io/priorityclasses",
      name: "system-custom",
      variants: () => [["system-unknown", { value: 5 }]],
    },
    {
      id: "scheduling.k8s.io/priorityclasses",
      name: "system-cluster-critical",
      variants: () => [["system-cluster-global-default", { value: 2000000000, globalDefault: true }]],
    },
  ],
};
