/**
 * CustomResourceDefinitions end to end: validation of the CRD, its status,
 * discovery, CRUD of its resources (namespaced and cluster-scoped), schema
 * validation, pruning and defaults, the status and scale subresources,
 * printer columns, two served versions sharing storage, selectable fields,
 * the published OpenAPI schema, deletion, and kubectl driving all of it.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kubectlFor } from "../support/kubectl.js";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import { openWatch } from "../support/watch-client.js";

let t: TestTarget;
let ns: string;
const group = `${uniqueName("crd")}.kubesdk.example`;
const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

const spec = {
  type: "object",
  properties: {
    cronSpec: { type: "string" },
    image: { type: "string", default: "nginx" },
    replicas: { type: "integer", minimum: 0 },
    mode: { type: "string", enum: ["fast", "slow"] },
    port: { "x-kubernetes-int-or-string": true },
    extra: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
  },
  required: ["cronSpec"],
};
const schema = <S extends object>(specSchema: S) => ({
  openAPIV3Schema: {
    type: "object",
    properties: {
      spec: specSchema,
      status: { type: "object", properties: { replicas: { type: "integer" }, phase: { type: "string" } } },
    },
  },
});

/** A namespaced CRD with two served versions (v1 stores), status and scale on v1, columns and selectable fields. */
const cronTabs = () =>
  structuredClone({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `crontabs.${group}` },
    spec: {
      group,
      scope: "Namespaced",
      names: { plural: "crontabs", singular: "crontab", kind: "CronTab", shortNames: ["ctk"] },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: schema(spec),
          subresources: {
            status: {},
            scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" },
          },
          additionalPrinterColumns: [
            { name: "Spec", type: "string", jsonPath: ".spec.cronSpec" },
            { name: "Replicas", type: "integer", jsonPath: ".spec.replicas" },
          ],
          selectableFields: [{ jsonPath: ".spec.mode" }],
        },
        { name: "v1beta1", served: true, storage: false, schema: schema({ ...spec, required: [] }) },
      ],
    },
  });

const widgets = () => ({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: `widgets.${group}` },
  spec: {
    group,
    scope: "Cluster",
    names: { plural: "widgets", kind: "Widget" },
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: { spec: { type: "object", properties: { color: { type: "string" } } } },
          },
        },
      },
    ],
  },
});

const base = (version = "v1") => `/apis/${group}/${version}/namespaces/${ns}/crontabs`;
const cronTab = (name: string, s: Record<string, unknown> = {}, version = "v1") => ({
  apiVersion: `${group}/${version}`,
  kind: "CronTab",
  metadata: { name },
  spec: { cronSpec: "* * * * *", replicas: 1, ...s },
});

/** Waits (on a watch, not a timer) until the CRD reports Established=True. */
async function established(name: string): Promise<Record<string, unknown>> {
  const w = await openWatch(t, `${CRDS}?watch=true&fieldSelector=metadata.name%3D${name}`);
  try {
    const seen = await w.until((e) =>
      (e.object?.status?.conditions ?? []).some(
        (c: { type: string; status: string }) => c.type === "Established" && c.status === "True",
      ),
    );
    return (seen.at(-1) as { object: Record<string, unknown> }).object;
  } finally {
    await w.close();
  }
}

/** Deletes a CRD and waits (on a watch) for it to be gone; upstream first runs its cleanup finalizer. */
async function deleteCrd(name: string): Promise<void> {
  const w = await openWatch(t, `${CRDS}?watch=true&fieldSelector=metadata.name%3D${name}`);
  try {
    const res = await t.call("DELETE", `${CRDS}/${name}`);
    expect(res.status).toBe(200);
    await w.until((e) => e.type === "DELETED");
  } finally {
    await w.close();
  }
}

/** A Status's causes as [field, reason, message] rows. */
function causesOf(status: {
  details: { causes: Array<{ field: string; reason: string; message: string }> };
}) {
  return status.details.causes.map((c) => [c.field, c.reason, c.message]);
}

function first<T>(items: readonly T[]): T {
  const item = items[0];
  if (item === undefined) throw new Error("expected at least one item");
  return item;
}

/**
 * Repeats a read until `done` holds (at most ~5 s). Only for what upstream applies asynchronously
 * without any event to wait for: a CRD change reaching its resources' handler. The reference
 * server applies it at once, so the first read succeeds there.
 */
async function eventually<T>(read: () => Promise<T>, done: (r: T) => boolean): Promise<T> {
  let last = await read();
  for (let i = 0; i < 100 && !done(last); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    last = await read();
  }
  return last;
}

let crdStatus: Record<string, unknown>;
beforeAll(async () => {
  t = await startTarget();
  ns = uniqueName("crd");
  expect((await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } })).status).toBe(201);
  const created = await t.call("POST", CRDS, { body: cronTabs() });
  expect(created.status).toBe(201);
  // Right after the write the controllers have not run yet: accepted names empty, the storage version stored.
  expect(created.json.status.storedVersions).toEqual(["v1"]);
  crdStatus = (await established(`crontabs.${group}`)).status as Record<string, unknown>;
  expect((await t.call("POST", CRDS, { body: widgets() })).status).toBe(201);
  await established(`widgets.${group}`);
});
afterAll(async () => {
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t.call("DELETE", `${CRDS}/crontabs.${group}`);
  await t.call("DELETE", `${CRDS}/widgets.${group}`);
  await t.close();
});

describe("CustomResourceDefinition lifecycle", () => {
  it("accepts the names and reports NamesAccepted and Established", () => {
    expect(crdStatus.acceptedNames).toEqual({
      plural: "crontabs",
      singular: "crontab",
      shortNames: ["ctk"],
      kind: "CronTab",
      listKind: "CronTabList",
    });
    const conditions = crdStatus.conditions as Array<Record<string, string>>;
    expect(conditions.find((c) => c.type === "NamesAccepted")).toMatchObject({
      status: "True",
      reason: "NoConflicts",
      message: "no conflicts found",
    });
    expect(conditions.find((c) => c.type === "Established")).toMatchObject({
      status: "True",
      reason: "InitialNamesAccepted",
      message: "the initial names have been accepted",
    });
    expect(crdStatus.storedVersions).toEqual(["v1"]);
  });

  it("rejects invalid CRDs with 422 and upstream's causes", async () => {
    const bad = cronTabs();
    bad.metadata.name = `other.${group}`;
    first(bad.spec.versions).storage = false;
    (
      first(bad.spec.versions).schema.openAPIV3Schema.properties.spec.properties as Record<string, unknown>
    ).broken = {
      properties: {},
    };
    (bad.spec as Record<string, unknown>).scope = "Everywhere";
    const res = await t.call("POST", CRDS, { body: bad });
    expect(res.status).toBe(422);
    expect(res.json.reason).toBe("Invalid");
    expect(causesOf(res.json)).toEqual(
      expect.arrayContaining([
        [
          "metadata.name",
          "FieldValueInvalid",
          `Invalid value: "other.${group}": must be spec.names.plural+"."+spec.group`,
        ],
        [
          "spec.scope",
          "FieldValueNotSupported",
          'Unsupported value: "Everywhere": supported values: "Cluster", "Namespaced"',
        ],
        [
          "spec.versions",
          "FieldValueInvalid",
          expect.stringMatching(/: must have exactly one version marked as storage version$/),
        ],
        [
          "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[broken].type",
          "FieldValueRequired",
          "Required value: must not be empty for specified object fields",
        ],
        [
          "status.storedVersions",
          "FieldValueInvalid",
          "Invalid value: null: must have at least one stored version",
        ],
      ]),
    );
  });

  it("reports a default that does not match its schema at the hoisted path", async () => {
    const bad = widgets();
    bad.metadata.name = `gadgets.${group}`;
    bad.spec.names = { plural: "gadgets", kind: "Gadget" };
    (
      first(bad.spec.versions).schema.openAPIV3Schema.properties.spec.properties.color as Record<
        string,
        unknown
      >
    ).default = 5;
    const res = await t.call("POST", CRDS, { body: bad });
    expect(res.status).toBe(422);
    expect(res.json.message).toBe(
      `CustomResourceDefinition.apiextensions.k8s.io "gadgets.${group}" is invalid: spec.validation.openAPIV3Schema.properties[spec].properties[color].default: Invalid value: "integer":  in body must be of type string: "integer"`,
    );
  });

  it("serves discovery for the group and both versions", async () => {
    const groups = await t.call("GET", "/apis");
    const g = groups.json.groups.find((x: { name: string }) => x.name === group);
    expect(g.versions.map((v: { version: string }) => v.version)).toEqual(["v1", "v1beta1"]);
    expect(g.preferredVersion.version).toBe("v1");
    const v1 = (await t.call("GET", `/apis/${group}/v1`)).json;
    const byName = Object.fromEntries(v1.resources.map((r: { name: string }) => [r.name, r]));
    expect(byName.crontabs).toMatchObject({
      namespaced: true,
      kind: "CronTab",
      singularName: "crontab",
      shortNames: ["ctk"],
    });
    expect(byName["crontabs/status"]).toMatchObject({ kind: "CronTab", verbs: ["get", "patch", "update"] });
    expect(byName["crontabs/scale"]).toMatchObject({ group: "autoscaling", version: "v1", kind: "Scale" });
    expect(byName.widgets).toMatchObject({ namespaced: false, kind: "Widget" });
    const beta = (await t.call("GET", `/apis/${group}/v1beta1`)).json;
    expect(beta.resources.map((r: { name: string }) => r.name)).toEqual(["crontabs"]);
  });
});

describe("custom resources", () => {
  it("creates, reads, updates, patches and deletes, with defaults applied", async () => {
    const created = await t.call("POST", base(), { body: cronTab("c1") });
    expect(created.status).toBe(201);
    expect(created.json.spec).toEqual({ cronSpec: "* * * * *", replicas: 1, image: "nginx" });
    expect(created.json.metadata.generation).toBe(1);
    const got = await t.call("GET", `${base()}/c1`);
    expect(got.json.metadata.uid).toBe(created.json.metadata.uid);
    const updated = await t.call("PUT", `${base()}/c1`, {
      body: { ...got.json, spec: { ...got.json.spec, replicas: 2 } },
    });
    expect(updated.status).toBe(200);
    expect(updated.json.metadata.generation).toBe(2);
    const stale = await t.call("PUT", `${base()}/c1`, {
      body: { ...got.json, spec: { ...got.json.spec, replicas: 3 } },
    });
    expect(stale.status).toBe(409);
    expect(stale.json.message).toBe(
      `Operation cannot be fulfilled on crontabs.${group} "c1": the object has been modified; please apply your changes to the latest version and try again`,
    );
    const patched = await t.call("PATCH", `${base()}/c1`, {
      body: { spec: { mode: "fast" } },
      contentType: "application/merge-patch+json",
    });
    expect(patched.json.spec).toMatchObject({ mode: "fast", replicas: 2 });
    expect((await t.call("DELETE", `${base()}/c1`)).status).toBe(200);
    const gone = await t.call("GET", `${base()}/c1`);
    expect(gone.status).toBe(404);
    expect(gone.json.message).toBe(`crontabs.${group} "c1" not found`);
  });

  it("serves cluster-scoped resources only without a namespace", async () => {
    const w = { apiVersion: `${group}/v1`, kind: "Widget", metadata: { name: "w1" }, spec: { color: "red" } };
    expect((await t.call("POST", `/apis/${group}/v1/widgets`, { body: w })).status).toBe(201);
    expect((await t.call("GET", `/apis/${group}/v1/widgets/w1`)).json.spec).toEqual({ color: "red" });
    expect((await t.call("GET", `/apis/${group}/v1/namespaces/${ns}/widgets/w1`)).status).toBe(404);
  });

  it("validates against the schema with upstream's 422 causes", async () => {
    const res = await t.call("POST", base(), {
      body: { ...cronTab("bad"), spec: { replicas: "three", mode: "medium", port: true } },
    });
    expect(res.status).toBe(422);
    expect(res.json.details).toMatchObject({ name: "bad", group, kind: "CronTab" });
    expect(causesOf(res.json)).toEqual(
      expect.arrayContaining([
        [
          "spec.replicas",
          "FieldValueTypeInvalid",
          'Invalid value: "string": spec.replicas in body must be of type integer: "string"',
        ],
        [
          "spec.mode",
          "FieldValueNotSupported",
          'Unsupported value: "medium": supported values: "fast", "slow"',
        ],
        [
          "spec.port",
          "FieldValueTypeInvalid",
          'Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
        ],
        ["spec.cronSpec", "FieldValueRequired", "Required value"],
      ]),
    );
    const negative = await t.call("POST", base(), { body: cronTab("neg", { replicas: -1 }) });
    expect(negative.json.details.causes).toEqual(
      expect.arrayContaining([
        {
          reason: "FieldValueInvalid",
          message: "Invalid value: -1: spec.replicas in body should be greater than or equal to 0",
          field: "spec.replicas",
        },
      ]),
    );
  });

  it("prunes unknown fields (with a warning) and keeps preserved ones", async () => {
    const res = await t.call("POST", base(), {
      body: cronTab("pruned", { unknown: 1, extra: { anything: { goes: true } } }),
    });
    expect(res.status).toBe(201);
    expect(res.json.spec.unknown).toBeUndefined();
    expect(res.json.spec.extra).toEqual({ anything: { goes: true } });
    expect(String(res.headers.warning)).toContain('unknown field \\"spec.unknown\\"');
  });

  it("splits status from the main resource", async () => {
    const created = await t.call("POST", base(), {
      body: { ...cronTab("st"), status: { phase: "Ignored" } },
    });
    expect(created.json.status).toBeUndefined();
    const withStatus = await t.call("PUT", `${base()}/st/status`, {
      body: {
        ...created.json,
        spec: { ...created.json.spec, replicas: 9 },
        status: { phase: "Running", replicas: 1 },
      },
    });
    expect(withStatus.status).toBe(200);
    expect(withStatus.json.status).toEqual({ phase: "Running", replicas: 1 });
    expect(withStatus.json.spec.replicas).toBe(1);
    expect(withStatus.json.metadata.generation).toBe(1);
    const main = await t.call("PUT", `${base()}/st`, {
      body: { ...withStatus.json, spec: { ...withStatus.json.spec, replicas: 4 }, status: { phase: "Lost" } },
    });
    expect(main.json.status).toEqual({ phase: "Running", replicas: 1 });
    expect(main.json.spec.replicas).toBe(4);
    expect(main.json.metadata.generation).toBe(2);
  });

  it("scales through the scale subresource", async () => {
    await t.call("POST", base(), { body: cronTab("sc", { replicas: 2 }) });
    const scale = await t.call("GET", `${base()}/sc/scale`);
    expect(scale.json).toMatchObject({
      kind: "Scale",
      apiVersion: "autoscaling/v1",
      spec: { replicas: 2 },
      status: { replicas: 0 },
    });
    const put = await t.call("PUT", `${base()}/sc/scale`, { body: { ...scale.json, spec: { replicas: 5 } } });
    expect(put.status).toBe(200);
    expect((await t.call("GET", `${base()}/sc`)).json.spec.replicas).toBe(5);
    const stale = await t.call("PUT", `${base()}/sc/scale`, {
      body: { ...scale.json, spec: { replicas: 6 } },
    });
    expect(stale.status).toBe(409);
  });

  it("renders additionalPrinterColumns in Tables", async () => {
    await t.call("POST", base(), { body: cronTab("tbl", { cronSpec: "*/5 * * * *", replicas: 3 }) });
    const res = await t.call("GET", `${base()}?fieldSelector=metadata.name%3Dtbl`, {
      accept: "application/json;as=Table;g=meta.k8s.io;v=v1",
    });
    expect(res.json.kind).toBe("Table");
    expect(res.json.columnDefinitions.map((c: { name: string; type: string }) => [c.name, c.type])).toEqual([
      ["Name", "string"],
      ["Spec", "string"],
      ["Replicas", "integer"],
    ]);
    expect(res.json.rows[0].cells).toEqual(["tbl", "*/5 * * * *", 3]);
    // Without additionalPrinterColumns a version shows its age, rendered server-side like kubectl's AGE.
    await t.call("POST", `/apis/${group}/v1/widgets`, {
      body: { apiVersion: `${group}/v1`, kind: "Widget", metadata: { name: "aged" } },
    });
    const widgetsTable = await t.call("GET", `/apis/${group}/v1/widgets?fieldSelector=metadata.name%3Daged`, {
      accept: "application/json;as=Table;g=meta.k8s.io;v=v1",
    });
    expect(
      widgetsTable.json.columnDefinitions.map((c: { name: string; type: string }) => [c.name, c.type]),
    ).toEqual([
      ["Name", "string"],
      ["Age", "date"],
    ]);
    expect(widgetsTable.json.rows[0].cells).toEqual(["aged", expect.stringMatching(/^\d+s$/)]);
  });

  it("serves two versions from one storage, rewriting apiVersion", async () => {
    const viaBeta = await t.call("POST", base("v1beta1"), { body: cronTab("multi", {}, "v1beta1") });
    expect(viaBeta.status).toBe(201);
    expect(viaBeta.json.apiVersion).toBe(`${group}/v1beta1`);
    const viaV1 = await t.call("GET", `${base()}/multi`);
    expect(viaV1.json.apiVersion).toBe(`${group}/v1`);
    expect(viaV1.json.metadata.uid).toBe(viaBeta.json.metadata.uid);
    const list = await t.call("GET", base("v1beta1"));
    expect(list.json.kind).toBe("CronTabList");
    expect(list.json.items.every((i: { apiVersion: string }) => i.apiVersion === `${group}/v1beta1`)).toBe(
      true,
    );
  });

  it("selects by selectableFields on the version that declares them", async () => {
    await t.call("POST", base(), { body: cronTab("fast1", { mode: "fast" }) });
    await t.call("POST", base(), { body: cronTab("slow1", { mode: "slow" }) });
    const fast = await t.call("GET", `${base()}?fieldSelector=spec.mode%3Dslow`);
    expect(fast.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(["slow1"]);
    const beta = await t.call("GET", `${base("v1beta1")}?fieldSelector=spec.mode%3Dslow`);
    expect(beta.status).toBe(400);
    expect(beta.json.message).toBe("field label not supported: spec.mode");
  });

  it("applies defaults added later on read, and publishes the schema in OpenAPI v3", async () => {
    await t.call("POST", `/apis/${group}/v1/widgets`, {
      body: { apiVersion: `${group}/v1`, kind: "Widget", metadata: { name: "later" }, spec: {} },
    });
    const crd = (await t.call("GET", `${CRDS}/widgets.${group}`)).json;
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.size = {
      type: "integer",
      default: 3,
    };
    expect((await t.call("PUT", `${CRDS}/widgets.${group}`, { body: crd })).status).toBe(200);
    const got = await eventually(
      () => t.call("GET", `/apis/${group}/v1/widgets/later`),
      (r) => r.json?.spec?.size !== undefined,
    );
    expect(got.json.spec).toEqual({ size: 3 });
    const index = (await t.call("GET", "/openapi/v3")).json.paths;
    const entry = index[`apis/${group}/v1`];
    expect(entry.serverRelativeURL).toMatch(
      new RegExp(`^/openapi/v3/apis/${group.replaceAll(".", "\\.")}/v1\\?hash=[0-9A-F]+$`),
    );
    // The index can lag a CRD change by a moment upstream; a stale hash answers 301 to the current one.
    let res = await t.call("GET", entry.serverRelativeURL);
    if (res.status === 301) res = await t.call("GET", String(res.headers.location));
    const doc = res.json;
    const component = `${group.split(".").reverse().join(".")}.v1.Widget`;
    expect(doc.components.schemas[component]["x-kubernetes-group-version-kind"]).toEqual([
      { group, kind: "Widget", version: "v1" },
    ]);
  });
});

describe("updating a CRD", () => {
  it("serves a version and printer columns it adds", async () => {
    const name = `sprockets.${group}`;
    const crd = widgets();
    crd.metadata.name = name;
    crd.spec.names = { plural: "sprockets", kind: "Sprocket" };
    expect((await t.call("POST", CRDS, { body: crd })).status).toBe(201);
    await established(name);
    const sprocket = (version: string, name: string) => ({
      apiVersion: `${group}/${version}`,
      kind: "Sprocket",
      metadata: { name },
      spec: { color: "green" },
    });
    expect((await t.call("POST", `/apis/${group}/v1/sprockets`, { body: sprocket("v1", "s1") })).status).toBe(
      201,
    );
    const current = (await t.call("GET", `${CRDS}/${name}`)).json;
    const v1 = current.spec.versions[0];
    current.spec.versions = [
      { ...v1, additionalPrinterColumns: [{ name: "Color", type: "string", jsonPath: ".spec.color" }] },
      { ...v1, name: "v2", storage: false },
    ];
    const updated = await t.call("PUT", `${CRDS}/${name}`, { body: current });
    expect(updated.status).toBe(200);
    expect(updated.json.metadata.generation).toBe(2);
    const v2 = await eventually(
      () => t.call("GET", `/apis/${group}/v2/sprockets/s1`),
      (r) => r.status === 200,
    );
    expect(v2.json.apiVersion).toBe(`${group}/v2`);
    const table = await eventually(
      () =>
        t.call("GET", `/apis/${group}/v1/sprockets`, {
          accept: "application/json;as=Table;g=meta.k8s.io;v=v1",
        }),
      (r) => r.json?.columnDefinitions?.length === 2 && r.json.columnDefinitions[1].name === "Color",
    );
    expect(table.json.rows[0].cells).toEqual(["s1", "green"]);
    await deleteCrd(name);
  });
});

describe("deleting a CRD", () => {
  it("stops serving its resources and removes their objects", async () => {
    const name = `gizmos.${group}`;
    const crd = widgets();
    crd.metadata.name = name;
    crd.spec.names = { plural: "gizmos", kind: "Gizmo" };
    expect((await t.call("POST", CRDS, { body: crd })).status).toBe(201);
    await established(name);
    const path = `/apis/${group}/v1/gizmos`;
    expect(
      (
        await t.call("POST", path, {
          body: { apiVersion: `${group}/v1`, kind: "Gizmo", metadata: { name: "g1" } },
        })
      ).status,
    ).toBe(201);
    await deleteCrd(name);
    const gone = await eventually(
      () => t.call("GET", `${path}/g1`),
      (r) => r.status === 404,
    );
    expect(gone.status).toBe(404);
    expect(
      (await t.call("GET", `/apis/${group}/v1`)).json.resources.map((r: { name: string }) => r.name),
    ).not.toContain("gizmos");
  });
});

describe("kubectl with a CRD", () => {
  const cacheDir = mkdtempSync(join(tmpdir(), "kubesdk-kubectl-files-"));
  const kubectl = kubectlFor(() => t.kubeconfigPath);
  const file = (name: string, body: unknown) => {
    const p = join(cacheDir, `${name}.json`);
    writeFileSync(p, JSON.stringify(body));
    return p;
  };

  it("applies a CRD and its resources, lists them with columns and explains the kind", async () => {
    const crd = cronTabs();
    crd.metadata.name = `jobtabs.${group}`;
    crd.spec.names = { plural: "jobtabs", singular: "jobtab", kind: "JobTab", shortNames: ["jtk"] };
    const applied = await kubectl("apply", "-f", file("crd", crd));
    expect(applied.stderr).toBe("");
    expect(applied.stdout.trim()).toBe(
      `customresourcedefinition.apiextensions.k8s.io/jobtabs.${group} created`,
    );
    await established(`jobtabs.${group}`);
    const cr = { ...cronTab("k1", { cronSpec: "0 * * * *", replicas: 2 }), kind: "JobTab" };
    expect((await kubectl("-n", ns, "apply", "-f", file("cr", cr))).stdout.trim()).toBe(
      `jobtab.${group}/k1 created`,
    );
    const table = await kubectl("-n", ns, "get", "jobtabs");
    expect(table.stdout.split("\n")[0]).toMatch(/^NAME\s+SPEC\s+REPLICAS$/);
    expect(table.stdout).toMatch(/k1\s+0 \* \* \* \*\s+2/);
    const explain = await kubectl("explain", `jobtabs.spec`);
    expect(explain.stdout).toContain("KIND:       JobTab");
    expect(explain.stdout).toMatch(/cronSpec\s+<string> -required-/);
    expect(explain.stdout).toMatch(/replicas\s+<integer>/);
    const scaled = await kubectl("-n", ns, "scale", "jobtab", "k1", "--replicas=4");
    expect(scaled.stdout.trim()).toBe(`jobtab.${group}/k1 scaled`);
    const strict = await kubectl(
      "-n",
      ns,
      "apply",
      "--validate=strict",
      "-f",
      file("bad", { ...cr, spec: { ...cr.spec, bogus: 1 } }),
    );
    expect(strict.code).not.toBe(0);
    expect(strict.stderr).toContain('strict decoding error: unknown field "spec.bogus"');
  });
});
