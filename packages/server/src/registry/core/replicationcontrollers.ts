/** ReplicationControllers: one replica by default; selectable by status.replicas. */
import type { KindStrategy } from "../strategy.js";
import { defaultReplicasAndTemplate } from "./pod-template-defaults.js";

export const replicationcontrollers: KindStrategy = {
  group: "",
  resource: "replicationcontrollers",
  tracksGeneration: true,
  fieldLabels: ["status.replicas"],
  defaults: defaultReplicasAndTemplate,
};
