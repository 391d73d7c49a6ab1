/** ReplicaSets: one replica by default; selectable by status.replicas. */
import { defaultReplicasAndTemplate } from "../core/pod-template-defaults.js";
import type { KindStrategy } from "../strategy.js";

export const replicasets: KindStrategy = {
  group: "apps",
  resource: "replicasets",
  tracksGeneration: true,
  fieldLabels: ["status.replicas"],
  defaults: defaultReplicasAndTemplate,
};
