/** Spec cases for autoscaling: HorizontalPodAutoscaler v2 replica bounds, targets, metrics, behavior. */
import { int, pick, type Random, type SpecGroup, type SpecVariant, word } from "./types.js";

function hpas(rnd: Random): SpecVariant[] {
  const target = { apiVersion: "apps/v1", kind: pick(rnd, ["Deployment", "StatefulSet"]), name: word(rnd) };
  const spec = (s: Record<string, unknown>) => ({
    spec: { scaleTargetRef: target, maxReplicas: int(rnd, 2, 9), ...s },
  });
  const metric = (type: string, source: Record<string, unknown>) => ({
    type,
    [type.charAt(0).toLowerCase() + type.slice(1)]: source,
  });
  const util = { type: "Utilization", averageUtilization: int(rnd, 1, 99) };
  const avg = { type: "AverageValue", averageValue: `${int(rnd, 1, 900)}m` };
  const rules = (r: Record<string, unknown>) => ({ behavior: { scaleDown: r } });
  return [
    ["valid", spec({ metrics: [metric("Resource", { name: "cpu", target: util })] })],
    ["min-zero-no-object", spec({ minReplicas: 0 })],
    ["min-negative", spec({ minReplicas: -int(rnd, 1, 9) })],
    ["max-zero", spec({ maxReplicas: 0 })],
    ["max-under-min", spec({ minReplicas: 10, maxReplicas: int(rnd, 1, 9) })],
    ["target-empty", spec({ scaleTargetRef: {} })],
    ["target-core-group", spec({ scaleTargetRef: { ...target, apiVersion: "v1" } })],
    [
      "target-rc-core",
      spec({ scaleTargetRef: { apiVersion: "v1", kind: "ReplicationController", name: word(rnd) } }),
    ],
    ["target-bad-version", spec({ scaleTargetRef: { ...target, apiVersion: "a/b/c" } })],
    ["target-name-slash", spec({ scaleTargetRef: { ...target, name: `${word(rnd)}/x` } })],
    ["metric-type-bad", spec({ metrics: [{ type: "Bogus" }] })],
    [
      "metric-two-sources",
      spec({
        metrics: [
          {
            ...metric("Pods", { metric: { name: word(rnd) }, target: avg }),
            resource: { name: "cpu", target: util },
          },
        ],
      }),
    ],
    ["resource-no-target", spec({ metrics: [metric("Resource", { name: "memory" })] })],
    [
      "resource-both-targets",
      spec({ metrics: [metric("Resource", { name: "cpu", target: { ...util, averageValue: "1" } })] }),
    ],
    [
      "resource-zero-util",
      spec({
        metrics: [
          metric("Resource", { name: "cpu", target: { type: "Utilization", averageUtilization: 0 } }),
        ],
      }),
    ],
    [
      "container-bad-name",
      spec({ metrics: [metric("ContainerResource", { name: word(rnd), container: "C_1", target: avg })] }),
    ],
    [
      "pods-no-average",
      spec({
        metrics: [metric("Pods", { metric: { name: word(rnd) }, target: { type: "Value", value: "1" } })],
      }),
    ],
    [
      "object-no-value",
      spec({
        metrics: [
          metric("Object", {
            describedObject: { kind: "Service", name: word(rnd), apiVersion: "v1" },
            metric: { name: word(rnd) },
            target: { type: "Value" },
          }),
        ],
      }),
    ],
    [
      "external-negative",
      spec({
        metrics: [
          metric("External", { metric: { name: word(rnd) }, target: { type: "Value", value: "-1" } }),
        ],
      }),
    ],
    [
      "behavior-window-high",
      spec(
        rules({
          stabilizationWindowSeconds: 3601,
          policies: [{ type: "Pods", value: 1, periodSeconds: 15 }],
        }),
      ),
    ],
    [
      "behavior-select-bad",
      spec(rules({ selectPolicy: "Sometimes", policies: [{ type: "Pods", value: 1, periodSeconds: 15 }] })),
    ],
    [
      "behavior-policy-bad",
      spec(rules({ policies: [{ type: "Nodes", value: 0, periodSeconds: int(rnd, 1801, 4000) }] })),
    ],
    ["behavior-tolerance-negative", spec(rules({ tolerance: "-0.1" }))],
  ];
}

export const autoscaling: SpecGroup = {
  name: "autoscaling",
  kinds: [{ id: "autoscaling/horizontalpodautoscalers", variants: hpas }],
};
