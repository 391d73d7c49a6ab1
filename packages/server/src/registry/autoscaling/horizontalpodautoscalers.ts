/**
 * HorizontalPodAutoscalers: at least one replica; without metrics, 80% average CPU use. A /status
 * write keeps its replica counts non-negative (ValidateHorizontalPodAutoscalerStatusUpdate).
 */

import { type StatusCounterTable, statusCounterErrors } from "../../validation/status-counters.js";
import { child, set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";

const HPA_STATUS: StatusCounterTable = { counters: ["currentReplicas", "desiredReplicas"] };

export const horizontalpodautoscalers: KindStrategy = {
  group: "autoscaling",
  resource: "horizontalpodautoscalers",
  tracksGeneration: true,
  defaults(obj) {
    const spec = child(obj, "spec");
    set(spec, "minReplicas", 1);
    if (!Array.isArray(spec.metrics) || spec.metrics.length === 0)
      spec.metrics = [
        {
          type: "Resource",
          resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 80 } },
        },
      ];
  },
  validate: (obj, old, subresource) =>
    subresource === "status" ? statusCounterErrors(HPA_STATUS, obj, old) : [],
};
