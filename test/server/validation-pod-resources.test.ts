/**
 * Pod-level `spec.resources` as kube-apiserver 1.37 validates it (PodLevelResources is on):
 * packages/server/src/validation/pod-resources.ts. Pods are dry runs; each case names one rule.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes.
type Json = any;

let t: TestTarget;
let ns: string;

const c = (name: string, resources: Json = {}, extra: Json = {}) => ({
  name,
  image: "busybox",
  resources,
  ...extra,
});

/** `field | reason | message` of each cause of a dry-run pod create, or the status code when not 422. */
async function causes(spec: Json): Promise<string[] | number> {
  const res = await t.call("POST", `/api/v1/namespaces/${ns}/pods?dryRun=All`, {
    body: { metadata: { name: uniqueName("pod") }, spec: { containers: [c("main")], ...spec } },
  });
  if (res.status !== 422) return res.status;
  return (res.json.details.causes as Json[]).map((x) => `${x.field} | ${x.reason} | ${x.message}`).sort();
}

beforeAll(async () => {
  t = await startTarget();
  ns = uniqueName("pod-resources");
  await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
  const sa = await t.call("POST", `/api/v1/namespaces/${ns}/serviceaccounts`, {
    body: { metadata: { name: "default" } },
  });
  expect([201, 409], sa.text).toContain(sa.status);
});
afterAll(async () => {
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t.close();
});

describe("pod-level resources", () => {
  it("cpu, memory and hugepages within the containers' needs are accepted", async () => {
    expect(
      await causes({
        resources: { requests: { cpu: "1", memory: "1Gi" }, limits: { cpu: "2", memory: "1Gi" } },
      }),
    ).toBe(201);
  });

  it("only cpu, memory and hugepages may be named", async () => {
    const supported = 'supported values: "cpu", "hugepages-", "memory"';
    expect(
      await causes({ resources: { requests: { cpu: "1", "ephemeral-storage": "1Gi", pods: "1" } } }),
    ).toEqual([
      `spec.resources.requests[ephemeral-storage] | FieldValueNotSupported | Unsupported value: "ephemeral-storage": ${supported}`,
      `spec.resources.requests[pods] | FieldValueNotSupported | Unsupported value: "pods": ${supported}`,
    ]);
  });

  it("quantities are not negative, requests at most limits, hugepages need a limit and cpu or memory", async () => {
    expect(await causes({ resources: { requests: { cpu: "-1" } } })).toEqual([
      'spec.resources.requests[cpu] | FieldValueInvalid | Invalid value: "-1": must be greater than or equal to 0',
    ]);
    expect(await causes({ resources: { requests: { cpu: "2" }, limits: { cpu: "1" } } })).toEqual([
      'spec.resources.requests | FieldValueInvalid | Invalid value: "2": must be less than or equal to cpu limit of 1',
    ]);
    expect(await causes({ resources: { requests: { "hugepages-2Mi": "2Mi" } } })).toEqual([
      "spec.resources | FieldValueForbidden | Forbidden: HugePages require cpu or memory",
      "spec.resources.limits | FieldValueRequired | Required value: Limit must be set for non overcommitable resources",
    ]);
  });

  it("claims are refused at pod level", async () => {
    expect(await causes({ resources: { claims: [{ name: "x" }] } })).toEqual([
      "spec.resources.claims | FieldValueForbidden | Forbidden: claims may not be set for Resources at pod-level",
      'spec.resources.claims[0] | FieldValueNotFound | Not found: "x": must be one of the names in pod.spec.resourceClaims which is empty',
    ]);
  });

  it("the pod's requests cover the containers' aggregate: their sum, sidecars included, or an init container's", async () => {
    const aggregate = (of: string) =>
      `spec.resources.requests[cpu] | FieldValueInvalid | Invalid value: "1": must be greater than or equal to aggregate container requests of ${of}`;
    const containers = [c("a", { requests: { cpu: "500m" } }), c("b", { requests: { cpu: "700m" } })];
    expect(await causes({ resources: { requests: { cpu: "1" } }, containers })).toEqual([aggregate("1200m")]);
    const init = [c("i", { requests: { cpu: "2" } })];
    expect(await causes({ resources: { requests: { cpu: "1" } }, initContainers: init })).toEqual([
      aggregate("2"),
    ]);
    const sidecar = [c("s", { requests: { cpu: "300m" } }, { restartPolicy: "Always" })];
    const main = [c("main", { requests: { cpu: "800m" } })];
    expect(
      await causes({ resources: { requests: { cpu: "1" } }, initContainers: sidecar, containers: main }),
    ).toEqual([aggregate("1100m")]);
  });

  it("no container's limit is above the pod's limit", async () => {
    const spec = {
      resources: { requests: { cpu: "2" }, limits: { cpu: "2" } },
      containers: [c("main", { requests: { cpu: "1" }, limits: { cpu: "3" } })],
    };
    expect(await causes(spec)).toEqual([
      'spec.resources.containers[0][cpu].limits | FieldValueInvalid | Invalid value: "3": must be less than or equal to pod limits of 2',
    ]);
  });
});
