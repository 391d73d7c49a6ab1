/** Spec cases for node.k8s.io: RuntimeClass scheduling tolerations, which follow a pod's rules. */
import { tolerationVariants } from "./pod-scheduling-bodies.js";
import type { Random, SpecGroup, SpecVariant } from "./types.js";

function runtimeClasses(rnd: Random): SpecVariant[] {
  return [
    ["valid-plain", { handler: "runc" }],
    ...tolerationVariants(rnd).map(
      ([v, tolerations]): SpecVariant => [v, { handler: "runc", scheduling: { tolerations } }],
    ),
  ];
}

export const node: SpecGroup = {
  name: "node",
  kinds: [{ id: "node.k8s.io/runtimeclasses", variants: runtimeClasses }],
};
