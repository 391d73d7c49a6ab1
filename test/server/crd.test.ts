/**
 * CustomResourceDefinitions: validation of the CRD, its status and discovery,
 * updates and deletion, and kubectl driving a CRD and its resources. The
 * custom resources themselves are in crd-resources.test.ts.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { kubectlFor } from "../support/kubectl.js";
import {
  CRDS,
  causesOf,
  crdStatus,
  cronTab,
  cronTabs,
  deleteCrd,
  established,
  eventually,
  first,
  group,
  ns,
  t,
  useCrdFixtures,
  widgets,
} from "./crd-fixtures.js";

useCrdFixtures();

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
