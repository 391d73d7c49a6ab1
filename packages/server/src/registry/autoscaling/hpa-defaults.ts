/**
 * The defaults of an autoscaling/v2 HPA (upstream's v2 defaults.go): at least one replica; without
 * metrics, 80% average CPU use; a behavior's unset scaling rules filled in.
 */
import { child, isObj, type Obj, set } from "../default-fields.js";

/** The scaling rules upstream fills in where a behavior leaves them unset. */
const SCALE_UP: Obj = {
  stabilizationWindowSeconds: 0,
  selectPolicy: "Max",
  policies: [
    { type: "Pods", value: 4, periodSeconds: 15 },
    { type: "Percent", value: 100, periodSeconds: 15 },
  ],
};
const SCALE_DOWN: Obj = {
  selectPolicy: "Max",
  policies: [{ type: "Percent", value: 100, periodSeconds: 15 }],
};

function withDefaults(rules: unknown, defaults: Obj): Obj {
  const out: Obj = isObj(rules) ? { ...rules } : {};
  for (const [k, v] of Object.entries(defaults)) set(out, k, structuredClone(v));
  return out;
}

/** Applies the v2 defaults in place. */
export function defaultV2(obj: Obj): void {
  const spec = child(obj, "spec");
  set(spec, "minReplicas", 1);
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0)
    spec.metrics = [
      {
        type: "Resource",
        resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 80 } },
      },
    ];
  if (isObj(spec.behavior)) {
    spec.behavior.scaleUp = withDefaults(spec.behavior.scaleUp, SCALE_UP);
    spec.behavior.scaleDown = withDefaults(spec.behavior.scaleDown, SCALE_DOWN);
  }
}
