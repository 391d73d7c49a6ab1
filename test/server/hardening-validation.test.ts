/**
 * Hardening, part 3: wrong input that must be refused before anything is stored, each with
 * kube-apiserver's answer: options (dryRun, gracePeriodSeconds, fieldManager), identity (uid, name,
 * generateName) and ill-typed built-in objects (Go's decoding errors, int32 ranges).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
const ns = uniqueName("hard-val");
const cms = `/api/v1/namespaces/${ns}/configmaps`;
const deployments = `/apis/apps/v1/namespaces/${ns}/deployments`;

beforeAll(async () => {
  t = await startTarget();
  expect((await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } })).status).toBe(201);
  await t.call("POST", cms, { body: { metadata: { name: "target" }, data: { a: "1" } } });
});
afterAll(async () => {
  await t?.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t?.close();
});

const apply = (name: string, query: string, body: unknown) =>
  t.call("PATCH", `${cms}/${name}?${query}`, {
    rawBody: JSON.stringify(body),
    contentType: "application/apply-patch+yaml",
  });
const cm = (name: string) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name } });

describe("options", () => {
  it.each([
    ["dryRun=", '[""]'],
    ["dryRun=foo", '["foo"]'],
  ])("refuses %s with 422", async (query, shown) => {
    const res = await t.call("POST", `${cms}?${query}`, { body: { metadata: { name: "dry" } } });
    expect([res.status, res.json.message]).toEqual([
      422,
      `CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ${shown}: supported values: "All"`,
    ]);
    expect((await t.call("GET", `${cms}/dry`)).status).toBe(404);
  });

  it("refuses gracePeriodSeconds=abc with 400", async () => {
    const res = await t.call("DELETE", `${cms}/target?gracePeriodSeconds=abc`);
    expect([res.status, res.json.message]).toEqual([400, 'strconv.ParseInt: parsing "abc": invalid syntax']);
    expect((await t.call("GET", `${cms}/target`)).status).toBe(200);
  });

  it("refuses a fieldManager with a newline or over 128 bytes", async () => {
    const newline = await apply("target", "fieldManager=a%0Ab", cm("target"));
    expect([newline.status, newline.json.details.causes]).toEqual([
      422,
      [
        {
          reason: "FieldValueInvalid",
          message: 'Invalid value: "a\\nb": invalid character U+000A (at position 1)',
          field: "fieldManager",
        },
      ],
    ]);
    const long = await apply("target", `fieldManager=${"a".repeat(129)}`, cm("target"));
    expect([long.status, long.json.message]).toEqual([
      422,
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes',
    ]);
    const create = await t.call("POST", `${cms}?fieldManager=a%0Ab`, { body: { metadata: { name: "fm" } } });
    expect([create.status, create.json.message.split(":")[0]]).toEqual([
      422,
      'CreateOptions.meta.k8s.io "" is invalid',
    ]);
  });
});

describe("identity", () => {
  it("answers a PUT with another uid with 409", async () => {
    const current = (await t.call("GET", `${cms}/target`)).json;
    const uid = "00000000-0000-0000-0000-000000000000";
    const res = await t.call("PUT", `${cms}/target`, {
      body: { ...current, metadata: { ...current.metadata, uid } },
    });
    expect([res.status, res.json.reason]).toEqual([409, "Conflict"]);
    expect(res.json.message).toContain(
      `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${current.metadata.uid}`,
    );
  });

  it("refuses a patch that changes the uid with 422", async () => {
    const res = await t.call("PATCH", `${cms}/target`, {
      body: [{ op: "replace", path: "/metadata/uid", value: "x" }],
      contentType: "application/json-patch+json",
    });
    expect([res.status, res.json.message]).toEqual([
      422,
      'ConfigMap "target" is invalid: metadata.uid: Invalid value: "x": field is immutable',
    ]);
  });

  it.each(["application/merge-patch+json", "application/strategic-merge-patch+json"])(
    "refuses a %s that removes metadata with 400",
    async (contentType) => {
      const res = await t.call("PATCH", `${cms}/target`, { body: { metadata: null }, contentType });
      expect([res.status, res.json.message]).toEqual([
        400,
        "the name of the object (target based on URL) was undeterminable: name must be provided",
      ]);
    },
  );

  it("refuses an apply without a name with 400", async () => {
    const res = await apply("noname", "fieldManager=m", {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: {},
    });
    expect([res.status, res.json.message]).toEqual([
      400,
      "the name of the object (noname based on URL) was undeterminable: name must be provided",
    ]);
  });

  it("refuses a generateName of 300 characters with 422", async () => {
    const generateName = "a".repeat(300);
    const res = await t.call("POST", cms, { body: { metadata: { generateName } } });
    expect(res.status).toBe(422);
    expect(res.json.details.causes).toEqual([
      {
        reason: "FieldValueInvalid",
        message: `Invalid value: "${generateName}": must be no more than 253 characters`,
        field: "metadata.generateName",
      },
    ]);
  });
});

describe("ill-typed built-in objects", () => {
  const handled = (tail: string) =>
    `ConfigMap in version "v1" cannot be handled as a ConfigMap: json: ${tail}`;
  it.each([
    [
      { metadata: { name: ["x"] } },
      "cannot unmarshal array into Go struct field ObjectMeta.metadata.name of type string",
    ],
    [
      { metadata: { name: "l1", labels: { a: 1 } } },
      "cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string",
    ],
    [
      { metadata: { name: "l2", labels: ["a"] } },
      "cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string",
    ],
    [
      { metadata: { name: "l3" }, data: { a: 1 } },
      "cannot unmarshal number into Go struct field ConfigMap.data of type string",
    ],
    [
      { metadata: { name: "l4" }, data: "x" },
      "cannot unmarshal string into Go struct field ConfigMap.data of type map[string]string",
    ],
    [
      { metadata: 5 },
      "cannot unmarshal number into Go struct field ConfigMap.metadata of type v1.ObjectMeta",
    ],
  ])("refuses %j with 400", async (body, tail) => {
    const res = await t.call("POST", cms, { body });
    expect([res.status, res.json.message]).toEqual([400, handled(tail)]);
  });

  it.each([
    [
      "pods",
      "Pod",
      { spec: { containers: [{ name: "c", image: "i" }], volumes: [{ name: "v", secret: "x" }] } },
      "cannot unmarshal string into Go struct field Volume.spec.volumes.VolumeSource.secret of type v1.SecretVolumeSource",
    ],
    [
      "pods",
      "Pod",
      { spec: { containers: [{ name: "c", image: "i", livenessProbe: { exec: { command: "x" } } }] } },
      "cannot unmarshal string into Go struct field ExecAction.spec.containers.livenessProbe.ProbeHandler.exec.command of type []string",
    ],
    [
      "persistentvolumes",
      "PersistentVolume",
      { spec: { hostPath: "x", capacity: { storage: "1Gi" }, accessModes: ["ReadWriteOnce"] } },
      "cannot unmarshal string into Go struct field PersistentVolumeSpec.spec.PersistentVolumeSource.hostPath of type v1.HostPathVolumeSource",
    ],
  ])("names the embedded struct of a %s field in the path", async (resource, kind, body, tail) => {
    const path = resource === "pods" ? `/api/v1/namespaces/${ns}/pods` : "/api/v1/persistentvolumes";
    const res = await t.call("POST", `${path}?dryRun=All`, { body: { metadata: { name: "e" }, ...body } });
    expect([res.status, res.json.message]).toEqual([
      400,
      `${kind} in version "v1" cannot be handled as a ${kind}: json: ${tail}`,
    ]);
  });

  it("accepts null where Go keeps the zero value", async () => {
    const res = await t.call("POST", cms, { body: { metadata: { name: "nulls", annotations: null } } });
    expect(res.status).toBe(201);
  });

  it.each([
    ['"3"', "string"],
    ["1.5", "number 1.5"],
    ["1e400", "number 1e400"],
    ["2147483648", "number 2147483648"],
  ])("refuses replicas: %s with 400", async (replicas, what) => {
    const name = `d-${replicas.replace(/[^a-z0-9]/g, "x")}`;
    const spec = `{"replicas":${replicas},"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}`;
    const res = await t.call("POST", deployments, {
      rawBody: `{"metadata":{"name":"${name}"},"spec":${spec}}`,
    });
    expect([res.status, res.json.message]).toEqual([
      400,
      `Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal ${what} into Go struct field DeploymentSpec.spec.replicas of type int32`,
    ]);
    expect((await t.call("GET", `${deployments}/${name}`)).status).toBe(404);
  });

  it.each([
    ["application/merge-patch+json", { data: { a: 5 } }],
    ["application/json-patch+json", [{ op: "replace", path: "/data/a", value: 5 }]],
  ])("refuses an ill-typed %s result with 422 and keeps the object", async (contentType, body) => {
    const res = await t.call("PATCH", `${cms}/target`, { body, contentType });
    expect([res.status, res.json.details.causes[0].field]).toEqual([422, "patch"]);
    expect(res.json.message).toMatch(
      /^ "" is invalid: patch: Invalid value: .*: json: cannot unmarshal number into Go struct field ConfigMap\.data of type string$/,
    );
    expect((await t.call("GET", `${cms}/target`)).json.data).toEqual({ a: "1" });
  });

  it("refuses an ill-typed PUT with 400", async () => {
    const current = (await t.call("GET", `${cms}/target`)).json;
    const res = await t.call("PUT", `${cms}/target`, { body: { ...current, data: { a: 5 } } });
    expect([res.status, res.json.message]).toEqual([
      400,
      handled("cannot unmarshal number into Go struct field ConfigMap.data of type string"),
    ]);
  });
});
