import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget } from "../support/target.js";
import { checkRow, createThenPut, type SpecRow } from "./spec-validation-cases.js";

let t: TestTarget;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(() => t.close());

const V2 = "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers";
const V1 = "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers";
const TARGET = { apiVersion: "apps/v1", kind: "Deployment", name: "web" };
const cpu = (target: Record<string, unknown>) => ({ type: "Resource", resource: { name: "cpu", target } });

/** A v2 HPA with the given spec fields over a valid one. */
const hpa = (spec: Record<string, unknown>) => ({
  metadata: { name: "h" },
  spec: { scaleTargetRef: TARGET, maxReplicas: 3, ...spec },
});
const row = (name: string, spec: Record<string, unknown>, causes: string[]): SpecRow => ({
  name,
  path: V2,
  body: hpa(spec),
  causes,
});
const GT0 = "must be greater than 0";
const POSITIVE = "must be positive";

const SPEC_ROWS: SpecRow[] = [
  row("a valid HPA", { metrics: [cpu({ type: "Utilization", averageUtilization: 50 })] }, []),
  row(
    "minReplicas 0 without an Object or External metric, maxReplicas 0",
    { minReplicas: 0, maxReplicas: 0 },
    [
      "spec.maxReplicas | FieldValueRequired | Required value",
      "spec.metrics | FieldValueForbidden | Forbidden: must specify at least one Object or External metric to support scaling to zero replicas",
    ],
  ),
  row("negative minReplicas and maxReplicas", { minReplicas: -1, maxReplicas: -1 }, [
    "spec.minReplicas | FieldValueInvalid | Invalid value: -1: must be greater than or equal to 0",
    "spec.maxReplicas | FieldValueInvalid | Invalid value: -1: must be greater than or equal to 1",
  ]),
  row("no maxReplicas", { maxReplicas: undefined }, [
    "spec.maxReplicas | FieldValueInvalid | Invalid value: 0: must be greater than or equal to `minReplicas`",
    "spec.maxReplicas | FieldValueRequired | Required value",
  ]),
  row(
    "scaling to zero on an External metric",
    {
      minReplicas: 0,
      metrics: [
        { type: "External", external: { metric: { name: "q" }, target: { type: "Value", value: "1" } } },
      ],
    },
    [],
  ),
  row("maxReplicas under minReplicas", { minReplicas: 5 }, [
    "spec.maxReplicas | FieldValueInvalid | Invalid value: 3: must be greater than or equal to `minReplicas`",
  ]),
  row("an empty scaleTargetRef", { scaleTargetRef: {} }, [
    "spec.scaleTargetRef.kind | FieldValueRequired | Required value",
    "spec.scaleTargetRef.name | FieldValueRequired | Required value",
    'spec.scaleTargetRef.apiVersion | FieldValueInvalid | Invalid value: "": apiVersion must specify API group',
  ]),
  row(
    "a scaleTargetRef with a bad name, kind and apiVersion",
    { scaleTargetRef: { apiVersion: "a/b/c", kind: "..", name: "x/y" } },
    [
      `spec.scaleTargetRef.kind | FieldValueInvalid | Invalid value: "..": may not be '..'`,
      `spec.scaleTargetRef.name | FieldValueInvalid | Invalid value: "x/y": may not contain '/'`,
      'spec.scaleTargetRef.apiVersion | FieldValueInvalid | Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
    ],
  ),
  row(
    "a core ReplicationController target",
    { scaleTargetRef: { apiVersion: "v1", kind: "ReplicationController", name: "rc" } },
    [],
  ),
  row(
    "a core target of another kind",
    { scaleTargetRef: { apiVersion: "v1", kind: "Deployment", name: "d" } },
    [
      'spec.scaleTargetRef.apiVersion | FieldValueInvalid | Invalid value: "v1": apiVersion must specify API group',
    ],
  ),
  row("a metric without type or source", { metrics: [{}] }, [
    "spec.metrics[0].type | FieldValueRequired | Required value: must specify a metric source type",
    'spec.metrics[0].type | FieldValueNotSupported | Unsupported value: "": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
  ]),
  row(
    "a Pods metric with a resource source too",
    {
      metrics: [
        {
          type: "Pods",
          resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 5 } },
          pods: { metric: { name: "qps" }, target: { type: "AverageValue", averageValue: "1" } },
        },
      ],
    },
    [
      "spec.metrics[0].resource | FieldValueForbidden | Forbidden: must populate the given metric source only",
    ],
  ),
  row("a Resource metric without a target", { metrics: [{ type: "Resource", resource: {} }] }, [
    "spec.metrics[0].resource.name | FieldValueRequired | Required value: must specify a resource name",
    "spec.metrics[0].resource.target.type | FieldValueRequired | Required value: must specify a metric target type",
    'spec.metrics[0].resource.target.type | FieldValueInvalid | Invalid value: "": must be either Utilization, Value, or AverageValue',
    "spec.metrics[0].resource.target.averageUtilization | FieldValueRequired | Required value: must set either a target raw value or a target utilization",
  ]),
  row(
    "a Resource metric with bad values",
    { metrics: [cpu({ type: "Bogus", averageUtilization: 0, averageValue: "-1", value: "0" })] },
    [
      'spec.metrics[0].resource.target.type | FieldValueInvalid | Invalid value: "Bogus": must be either Utilization, Value, or AverageValue',
      `spec.metrics[0].resource.target.value | FieldValueInvalid | Invalid value: "0": ${POSITIVE}`,
      `spec.metrics[0].resource.target.averageValue | FieldValueInvalid | Invalid value: "-1": ${POSITIVE}`,
      `spec.metrics[0].resource.target.averageUtilization | FieldValueInvalid | Invalid value: 0: ${GT0}`,
      "spec.metrics[0].resource.target.averageValue | FieldValueForbidden | Forbidden: may not set both a target raw value and a target utilization",
    ],
  ),
  row(
    "a ContainerResource metric with a bad name and container",
    {
      metrics: [
        {
          type: "ContainerResource",
          containerResource: {
            name: "foo",
            container: "Bad_C",
            target: { type: "AverageValue", averageValue: "100m" },
          },
        },
      ],
    },
    [
      'spec.metrics[0].containerResource.name | FieldValueInvalid | Invalid value: "foo": must be a standard resource type or fully qualified',
      'spec.metrics[0].containerResource.name | FieldValueInvalid | Invalid value: "foo": must be a standard resource for containers',
      `spec.metrics[0].containerResource.container | FieldValueInvalid | Invalid value: "Bad_C": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    ],
  ),
  row(
    "an empty ContainerResource metric",
    {
      metrics: [
        {
          type: "ContainerResource",
          containerResource: { target: { type: "Utilization", averageUtilization: 10 } },
        },
      ],
    },
    [
      "spec.metrics[0].containerResource.name | FieldValueRequired | Required value: must specify a resource name",
      "spec.metrics[0].containerResource.container | FieldValueRequired | Required value: must specify a container",
    ],
  ),
  row(
    "Pods, Object and External metrics without targets",
    {
      metrics: [
        { type: "Pods", pods: { metric: { name: "a%b" }, target: { type: "AverageValue" } } },
        {
          type: "Object",
          object: {
            describedObject: { kind: "Service", name: "s", apiVersion: "v1" },
            metric: {},
            target: { type: "Value" },
          },
        },
        {
          type: "External",
          external: { metric: { name: "q" }, target: { type: "Value", value: "1", averageValue: "2" } },
        },
      ],
    },
    [
      `spec.metrics[0].pods.metric.name | FieldValueInvalid | Invalid value: "a%b": may not contain '%'`,
      "spec.metrics[0].pods.target.averageValue | FieldValueRequired | Required value: must specify a positive target averageValue",
      "spec.metrics[1].object.metric.name | FieldValueRequired | Required value: must specify a metric name",
      "spec.metrics[1].object.target.averageValue | FieldValueRequired | Required value: must set either a target value or averageValue",
      "spec.metrics[2].external.target.value | FieldValueForbidden | Forbidden: may not set both a target value for metric and a per-pod target",
    ],
  ),
  row(
    "an Object metric whose describedObject apiVersion does not parse",
    {
      metrics: [
        {
          type: "Object",
          object: {
            describedObject: { kind: "Service", name: "s", apiVersion: "a/b/c" },
            metric: { name: "m" },
            target: { type: "Value", value: "1" },
          },
        },
      ],
    },
    [
      'spec.metrics[0].object.describedObject.apiVersion | FieldValueInvalid | Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
    ],
  ),
  row(
    "a behavior out of bounds",
    {
      behavior: {
        scaleUp: { stabilizationWindowSeconds: -1, selectPolicy: "Sometimes", policies: [] },
        scaleDown: {
          stabilizationWindowSeconds: 3601,
          policies: [
            { type: "Nodes", value: 0, periodSeconds: 1801 },
            { type: "Pods", value: 1, periodSeconds: 0 },
          ],
        },
      },
    },
    [
      "spec.behavior.scaleUp.stabilizationWindowSeconds | FieldValueInvalid | Invalid value: -1: must be greater than or equal to zero",
      'spec.behavior.scaleUp.selectPolicy | FieldValueNotSupported | Unsupported value: "Sometimes": supported values: "Disabled", "Max", "Min"',
      "spec.behavior.scaleUp.policies | FieldValueRequired | Required value: must specify at least one Policy",
      "spec.behavior.scaleDown.stabilizationWindowSeconds | FieldValueInvalid | Invalid value: 3601: must be less than or equal to 3600",
      'spec.behavior.scaleDown.policies[0].type | FieldValueNotSupported | Unsupported value: "Nodes": supported values: "Percent", "Pods"',
      "spec.behavior.scaleDown.policies[0].value | FieldValueInvalid | Invalid value: 0: must be greater than zero",
      "spec.behavior.scaleDown.policies[0].periodSeconds | FieldValueInvalid | Invalid value: 1801: must be less than or equal to 1800",
      "spec.behavior.scaleDown.policies[1].periodSeconds | FieldValueInvalid | Invalid value: 0: must be greater than zero",
    ],
  ),
  row("a negative tolerance", { behavior: { scaleUp: { tolerance: "-100m" } } }, [
    'spec.behavior.scaleUp.tolerance | FieldValueInvalid | Invalid value: "-100m": must be greater than or equal to 0',
  ]),
];

const V1_ROWS: SpecRow[] = [
  {
    name: "a v1 HPA with a zero CPU target and a core Deployment target",
    path: V1,
    body: {
      metadata: { name: "h1" },
      spec: {
        scaleTargetRef: { apiVersion: "v1", kind: "Deployment", name: "d" },
        maxReplicas: 2,
        targetCPUUtilizationPercentage: 0,
      },
    },
    causes: [
      'spec.scaleTargetRef.apiVersion | FieldValueInvalid | Invalid value: "v1": apiVersion must specify API group',
      `spec.metrics[0].resource.target.averageUtilization | FieldValueInvalid | Invalid value: 0: ${GT0}`,
    ],
  },
];

/** Creates an HPA of a core ReplicationController, then updates its spec with `change`. */
const updateRcTarget = (change: Record<string, unknown>) =>
  createThenPut(
    t,
    V2,
    hpa({ scaleTargetRef: { apiVersion: "v1", kind: "ReplicationController", name: "r" } }),
    (c) => ({
      ...c,
      spec: { ...(c.spec as Record<string, unknown>), ...change },
    }),
  );

describe("HorizontalPodAutoscaler validation", () => {
  it.each([...SPEC_ROWS, ...V1_ROWS])("$name", async (r) => {
    await checkRow(t, r);
  });

  it("an update that keeps the target's kind and apiVersion is not held to the group rule", async () => {
    const res = await updateRcTarget({ maxReplicas: 4 });
    expect(res.status).toBe(200);
  });

  it("an update that changes the target kind is", async () => {
    const res = await updateRcTarget({ scaleTargetRef: { apiVersion: "v1", kind: "Deployment", name: "r" } });
    expect(res.status).toBe(422);
    expect(res.causes).toEqual([
      'spec.scaleTargetRef.apiVersion | FieldValueInvalid | Invalid value: "v1": apiVersion must specify API group',
    ]);
  });

  it("a status update is checked for negative replica counts only", async () => {
    const created = await t.call("POST", V2, { body: hpa({}) });
    expect(created.status).toBe(201);
    const status = { currentReplicas: -1, desiredReplicas: -2 };
    const res = await t.call("PUT", `${V2}/h/status`, { body: { ...created.json, status } });
    await t.call("DELETE", `${V2}/h`);
    expect(res.status).toBe(422);
    expect(
      (res.json.details?.causes ?? [])
        .map((c: { field: string; message: string }) => `${c.field} | ${c.message}`)
        .sort(),
    ).toEqual([
      "status.currentReplicas | Invalid value: -1: must be greater than or equal to 0",
      "status.desiredReplicas | Invalid value: -2: must be greater than or equal to 0",
    ]);
  });
});
