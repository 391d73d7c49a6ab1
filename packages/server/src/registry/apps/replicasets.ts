/**
 * ReplicaSets: one replica by default; selectable by status.replicas; validated as
 * ValidateReplicaSet and ValidateReplicaSetUpdate (the selector is immutable).
 */
import { objectAt } from "../../validation/field-errors.js";
import { selectorUnchanged } from "../../validation/label-selector.js";
import { statusCounterErrors } from "../../validation/status-counters.js";
import { defaultReplicasAndTemplate } from "../core/pod-template-defaults.js";
import type { KindStrategy } from "../strategy.js";
import { replicaSetSpecErrors } from "./replicaset-rules.js";
import { REPLICA_SET_STATUS } from "./workload-status.js";

export const replicasets: KindStrategy = {
  group: "apps",
  resource: "replicasets",
  tracksGeneration: true,
  fieldLabels: ["status.replicas"],
  defaults: defaultReplicasAndTemplate,
  validate(obj, old, subresource) {
    if (subresource === "status") return statusCounterErrors(REPLICA_SET_STATUS, obj, old);
    const spec = objectAt(obj.spec);
    const out = replicaSetSpecErrors(spec);
    if (old) out.push(...selectorUnchanged(spec, objectAt(old.spec)));
    return out;
  },
};
