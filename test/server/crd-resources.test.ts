/**
 * Custom resources served from CRDs: CRUD (namespaced and cluster-scoped), schema validation,
 * pruning and defaults, the status and scale subresources, printer columns, two served versions
 * sharing storage, selectable fields. The CRDs come from crd-fixtures.ts.
 */
import { describe, expect, it } from "vitest";
import { base, CRDS, causesOf, cronTab, eventually, group, ns, t, useCrdFixtures } from "./crd-fixtures.js";

useCrdFixtures();

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
