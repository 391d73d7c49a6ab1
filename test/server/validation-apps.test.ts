/**
 * Issue 31: apps/v1 specs validated as kube-apiserver 1.37 validates them (reason Invalid, the same
 * causes): Deployments, ReplicaSets, StatefulSets, DaemonSets and ControllerRevisions, on create and
 * on update. The seeded, broader comparison is `pnpm diff:server` (scripts/differential/specs/apps.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invalidAnswer, invalidWith } from "../support/invalid-status.js";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
const ns = uniqueName("val-apps");
const apps = (resource: string) => `/apis/apps/v1/namespaces/${ns}/${resource}`;

beforeAll(async () => {
  t = await startTarget();
  expect((await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } })).status).toBe(201);
});
afterAll(async () => {
  await t?.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t?.close();
});

const containers = [{ name: "c", image: "busybox" }];
const template = { metadata: { labels: { app: "x" } }, spec: { containers } };
const workload = (extra: Record<string, unknown> = {}) => ({
  selector: { matchLabels: { app: "x" } },
  template,
  ...extra,
});
const create = (resource: string, name: string, spec: unknown) =>
  t.call("POST", apps(resource), { body: { metadata: { name }, spec } });
const DNS_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

describe("Deployments", () => {
  it("refuses a spec without selector or template (what `$patch: delete` on spec leaves)", async () => {
    const res = await create("deployments", "empty", {});
    expect(invalidAnswer(res)).toEqual(
      invalidWith(
        "spec.selector | FieldValueRequired | Required value",
        "spec.template.metadata.labels | FieldValueInvalid | Invalid value: null: `selector` does not match template `labels`",
        "spec.template.spec.containers | FieldValueRequired | Required value",
      ),
    );
    expect(res.json.message).toMatch(/^Deployment\.apps "empty" is invalid: \[/);
    expect((await t.call("GET", `${apps("deployments")}/empty`)).status).toBe(404);
  });

  it("refuses negative counters, an unknown strategy and a deadline not above minReadySeconds", async () => {
    const res = await create(
      "deployments",
      "counters",
      workload({
        replicas: -1,
        minReadySeconds: 20,
        revisionHistoryLimit: -2,
        progressDeadlineSeconds: 20,
        strategy: { type: "Blue" },
      }),
    );
    expect(invalidAnswer(res)).toEqual(
      invalidWith(
        "spec.replicas | FieldValueInvalid | Invalid value: -1: must be greater than or equal to 0",
        'spec.strategy | FieldValueNotSupported | Unsupported value: {"Type":"Blue","RollingUpdate":null}: supported values: "Recreate", "RollingUpdate"',
        "spec.revisionHistoryLimit | FieldValueInvalid | Invalid value: -2: must be greater than or equal to 0",
        "spec.progressDeadlineSeconds | FieldValueInvalid | Invalid value: 20: must be greater than minReadySeconds",
      ),
    );
  });

  it("refuses rolling-update parameters that are both zero, over 100% or not a percentage", async () => {
    const both = await create(
      "deployments",
      "zero",
      workload({ strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } } }),
    );
    expect(invalidAnswer(both)).toEqual(
      invalidWith(
        "spec.strategy.rollingUpdate.maxUnavailable | FieldValueInvalid | Invalid value: 0: may not be 0 when `maxSurge` is 0",
      ),
    );
    const bad = await create(
      "deployments",
      "percent",
      workload({ strategy: { rollingUpdate: { maxSurge: "x", maxUnavailable: "150%" } } }),
    );
    expect(invalidAnswer(bad)).toEqual(
      invalidWith(
        "spec.strategy.rollingUpdate.maxSurge | FieldValueInvalid | Invalid value: \"x\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
        'spec.strategy.rollingUpdate.maxUnavailable | FieldValueInvalid | Invalid value: "150%": must not be greater than 100%',
      ),
    );
  });

  it("refuses an invalid selector requirement and does not check the template against it", async () => {
    const res = await create(
      "deployments",
      "selector",
      workload({ selector: { matchExpressions: [{ key: "app", operator: "In" }] } }),
    );
    expect(invalidAnswer(res)).toEqual(
      invalidWith(
        "spec.selector.matchExpressions[0].values | FieldValueRequired | Required value: must be specified when `operator` is 'In' or 'NotIn'",
        'spec.selector | FieldValueInvalid | Invalid value: {"matchExpressions":[{"key":"app","operator":"In"}]}: invalid label selector',
      ),
    );
  });

  it("validates the pod template's labels, annotations and pod spec", async () => {
    const res = await create("deployments", "template", {
      selector: { matchLabels: { app: "x" } },
      template: {
        metadata: { labels: { app: "x", "a/b/c": "v" }, annotations: { "-x": "y" } },
        spec: {
          containers: [
            { name: "Web", image: "i" },
            { name: "Web", image: "" },
          ],
          restartPolicy: "Never",
        },
      },
    });
    const { causes } = invalidAnswer(res);
    expect(causes).toEqual(
      [
        "spec.template.labels | FieldValueInvalid | Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
        "spec.template.annotations | FieldValueInvalid | Invalid value: \"-x\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        `spec.template.spec.containers[0].name | FieldValueInvalid | Invalid value: "Web": ${DNS_LABEL}`,
        `spec.template.spec.containers[1].name | FieldValueInvalid | Invalid value: "Web": ${DNS_LABEL}`,
        'spec.template.spec.containers[1].name | FieldValueDuplicate | Duplicate value: "Web"',
        "spec.template.spec.containers[1].image | FieldValueRequired | Required value",
        'spec.template.spec.restartPolicy | FieldValueNotSupported | Unsupported value: "Never": supported values: "Always"',
      ].sort(),
    );
  });

  it("refuses an update that changes the selector", async () => {
    expect((await create("deployments", "immutable", workload())).status).toBe(201);
    const got = await t.call("GET", `${apps("deployments")}/immutable`);
    const next = structuredClone(got.json);
    next.spec.selector = { matchLabels: { app: "y" } };
    next.spec.template.metadata.labels = { app: "y" };
    const res = await t.call("PUT", `${apps("deployments")}/immutable`, { body: next });
    expect(invalidAnswer(res)).toEqual(
      invalidWith(
        'spec.selector | FieldValueInvalid | Invalid value: {"matchLabels":{"app":"y"}}: field is immutable',
      ),
    );
  });
});

describe("ReplicaSets, StatefulSets and DaemonSets", () => {
  it("a ReplicaSet with an empty selector and a negative replica count", async () => {
    const res = await create("replicasets", "rs", workload({ selector: {}, replicas: -3 }));
    expect(invalidAnswer(res)).toEqual(
      invalidWith(
        "spec.replicas | FieldValueInvalid | Invalid value: -3: must be greater than or equal to 0",
        "spec.selector | FieldValueInvalid | Invalid value: {}: empty selector is invalid for deployment",
      ),
    );
  });

  it("a StatefulSet's policies, service name and partition", async () => {
    const res = await create(
      "statefulsets",
      "sts",
      workload({
        serviceName: "Bad.Name",
        podManagementPolicy: "Random",
        updateStrategy: { rollingUpdate: { partition: -1 } },
        persistentVolumeClaimRetentionPolicy: { whenDeleted: "Keep" },
      }),
    );
    expect(invalidAnswer(res)).toEqual(
      invalidWith(
        "spec.podManagementPolicy | FieldValueInvalid | Invalid value: \"Random\": must be 'OrderedReady' or 'Parallel'",
        "spec.updateStrategy.rollingUpdate.partition | FieldValueInvalid | Invalid value: -1: must be greater than or equal to 0",
        'spec.persistentVolumeClaimRetentionPolicy.whenDeleted | FieldValueNotSupported | Unsupported value: "Keep": supported values: "Retain", "Delete"',
        `spec.serviceName | FieldValueInvalid | Invalid value: "Bad.Name": ${DNS_LABEL}`,
      ),
    );
  });

  it("a StatefulSet whose containers mount its volume claim templates is valid; its service name may not change", async () => {
    const spec = workload({
      serviceName: "svc",
      volumeClaimTemplates: [
        {
          metadata: { name: "data" },
          spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
        },
      ],
      template: {
        metadata: { labels: { app: "x" } },
        spec: { containers: [{ name: "c", image: "i", volumeMounts: [{ name: "data", mountPath: "/d" }] }] },
      },
    });
    expect((await create("statefulsets", "claims", spec)).status).toBe(201);
    const got = await t.call("GET", `${apps("statefulsets")}/claims`);
    const next = structuredClone(got.json);
    next.spec.serviceName = "other";
    const res = await t.call("PUT", `${apps("statefulsets")}/claims`, { body: next });
    expect(invalidAnswer(res)).toEqual(
      invalidWith('spec.serviceName | FieldValueInvalid | Invalid value: "other": field is immutable'),
    );
  });

  it("a DaemonSet may not surge and make nodes unavailable at once", async () => {
    const res = await create(
      "daemonsets",
      "ds",
      workload({ updateStrategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } } }),
    );
    expect(invalidAnswer(res)).toEqual(
      invalidWith(
        "spec.updateStrategy.rollingUpdate.maxSurge | FieldValueInvalid | Invalid value: 1: may not be set when maxUnavailable is non-zero",
      ),
    );
  });

  it("a DaemonSet without selector is refused because its template's labels are not selected", async () => {
    const res = await create("daemonsets", "no-selector", { template });
    expect(invalidAnswer(res)).toEqual(
      invalidWith(
        'spec.template.metadata.labels | FieldValueInvalid | Invalid value: {"app":"x"}: `selector` does not match template `labels`',
      ),
    );
  });
});

describe("ControllerRevisions", () => {
  const revisions = () => apps("controllerrevisions");

  it.each([
    ["no data", { revision: 1 }, "data | FieldValueRequired | Required value: data is mandatory"],
    [
      "null data",
      { revision: 1, data: null },
      "data | FieldValueRequired | Required value: data is mandatory",
    ],
    [
      "a string",
      { revision: 1, data: "x" },
      "data | FieldValueRequired | Required value: data must be a valid JSON object",
    ],
    [
      "a list",
      { revision: 1, data: [1] },
      "data | FieldValueRequired | Required value: data must be a valid JSON object",
    ],
    [
      "a negative revision",
      { revision: -1, data: {} },
      "revision | FieldValueInvalid | Invalid value: -1: must be greater than or equal to 0",
    ],
  ])("refuses %s", async (_what, body, cause) => {
    const res = await t.call("POST", revisions(), {
      body: { metadata: { name: uniqueName("cr") }, ...body },
    });
    expect(invalidAnswer(res)).toEqual(invalidWith(cause));
  });

  it("keeps data immutable", async () => {
    const created = await t.call("POST", revisions(), {
      body: { metadata: { name: "keep" }, revision: 1, data: { a: 1 } },
    });
    expect(created.status).toBe(201);
    const res = await t.call("PUT", `${revisions()}/keep`, { body: { ...created.json, data: { a: 2 } } });
    expect([
      res.status,
      res.json.reason,
      res.json.details.causes.map((c: { field: string }) => c.field),
    ]).toEqual([422, "Invalid", ["data"]]);
    expect(res.json.details.causes[0].message).toMatch(/field is immutable$/);
  });
});
