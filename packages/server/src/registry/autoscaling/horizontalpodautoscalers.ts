/**
 * HorizontalPodAutoscalers: stored as autoscaling/v2, also served as autoscaling/v1 (converted by
 * hpa-v1-conversion.ts), defaulted by hpa-defaults.ts; a new object starts with an empty status. A
 * /status write keeps its replica counts non-negative (ValidateHorizontalPodAutoscalerStatusUpdate).
 */
import { type StatusCounterTable, statusCounterErrors } from "../../validation/status-counters.js";
import { child, set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";
import { defaultV2 } from "./hpa-defaults.js";
import { hpaV1Conversion } from "./hpa-v1-conversion.js";

const HPA_STATUS: StatusCounterTable = { counters: ["currentReplicas", "desiredReplicas"] };

export const horizontalpodautoscalers: KindStrategy = {
  group: "autoscaling",
  resource: "horizontalpodautoscalers",
  tracksGeneration: true,
  defaults: defaultV2,
  prepareCreate(obj) {
    // Go's encoding of an empty v2 status: currentMetrics has no omitempty.
    obj.status = { currentMetrics: null, desiredReplicas: 0 };
  },
  otherVersions: {
    // v1 has no metrics to default: its conversion states the implied CPU target.
    v1: { convert: hpaV1Conversion, defaults: (obj) => set(child(obj, "spec"), "minReplicas", 1) },
  },
  validate: (obj, old, subresource) =>
    subresource === "status" ? statusCounterErrors(HPA_STATUS, obj, old) : [],
};
