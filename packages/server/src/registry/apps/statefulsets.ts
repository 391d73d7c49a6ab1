/**
 * StatefulSets: ordered pods, RollingUpdate from partition 0, claims retained; validated as
 * ValidateStatefulSet and ValidateStatefulSetUpdate (statefulset-rules.ts).
 */

import { objectAt } from "../../validation/field-errors.js";
import { statusCounterErrors } from "../../validation/status-counters.js";
import { defaultRollingUpdate, defaultTemplate } from "../core/pod-template-defaults.js";
import { child, set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";
import { statefulSetSpecErrors, statefulSetUpdateErrors } from "./statefulset-rules.js";
import { STATEFUL_SET_STATUS } from "./workload-status.js";

export const statefulsets: KindStrategy = {
  group: "apps",
  resource: "statefulsets",
  tracksGeneration: true,
  defaults(obj) {
    const spec = child(obj, "spec");
    set(spec, "replicas", 1);
    set(spec, "podManagementPolicy", "OrderedReady");
    // maxUnavailable: defaulted while the MaxUnavailableStatefulSet gate is on (1.37's default).
    defaultRollingUpdate(child(spec, "updateStrategy"), { partition: 0, maxUnavailable: 1 });
    set(spec, "revisionHistoryLimit", 10);
    const retention = child(spec, "persistentVolumeClaimRetentionPolicy");
    set(retention, "whenDeleted", "Retain");
    set(retention, "whenScaled", "Retain");
    defaultTemplate(spec);
  },
  validate(obj, old, subresource) {
    if (subresource === "status") return statusCounterErrors(STATEFUL_SET_STATUS, obj, old);
    const spec = objectAt(obj.spec);
    const out = statefulSetSpecErrors(spec);
    if (old) out.push(...statefulSetUpdateErrors(spec, objectAt(old.spec)));
    return out;
  },
};
