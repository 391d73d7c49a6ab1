/**
 * ReplicationControllers: one replica by default, and without labels of their own they take their
 * template's (core/v1 defaulting); selectable by status.replicas.
 */
import { child, type Obj } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";
import { defaultReplicasAndTemplate } from "./pod-template-defaults.js";

function defaultReplicationController(obj: Obj): void {
  defaultReplicasAndTemplate(obj);
  const meta = child(obj, "metadata");
  const template = (obj.spec as Obj).template as { metadata?: { labels?: Obj } } | undefined;
  const own = meta.labels as Obj | undefined;
  if ((own === undefined || Object.keys(own).length === 0) && template?.metadata?.labels)
    meta.labels = { ...template.metadata.labels };
}

export const replicationcontrollers: KindStrategy = {
  group: "",
  resource: "replicationcontrollers",
  tracksGeneration: true,
  fieldLabels: ["status.replicas"],
  defaults: defaultReplicationController,
};
