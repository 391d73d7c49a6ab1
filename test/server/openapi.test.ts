/**
 * OpenAPI v3 discovery (the hashed index and per-group-version documents with
 * their caching headers), server-side field validation driven by the schema
 * (Ignore / Warn / Strict; unknown and duplicate fields), and kubectl's use
 * of both: `kubectl explain` and `kubectl apply --validate=strict`.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kubectlFor } from "../support/kubectl.js";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
let ns: string;
const cms = () => `/api/v1/namespaces/${ns}/configmaps`;

beforeAll(async () => {
  t = await startTarget();
  ns = uniqueName("openapi");
  expect((await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } })).status).toBe(201);
});
afterAll(async () => {
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t.close();
});

describe("OpenAPI v3 discovery", () => {
  it("lists every group/version with a hashed URL", async () => {
    const res = await t.call("GET", "/openapi/v3");
    expect(res.status).toBe(200);
    const paths = res.json.paths;
    expect(paths["api/v1"].serverRelativeURL).toMatch(/^\/openapi\/v3\/api\/v1\?hash=[0-9A-F]{128}$/);
    expect(paths["apis/apps/v1"].serverRelativeURL).toMatch(
      /^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{128}$/,
    );
  });

  it("serves a group/version document with its hash as ETag, cacheable when the hash is given", async () => {
    const url = (await t.call("GET", "/openapi/v3")).json.paths["apis/apps/v1"].serverRelativeURL as string;
    const hash = url.slice(url.indexOf("hash=") + 5);
    const res = await t.call("GET", url);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json");
    expect(res.headers.etag).toBe(`"${hash}"`);
    expect(res.headers["cache-control"]).toBe("public, immutable");
    const doc = res.json;
    expect(doc.openapi).toMatch(/^3\.0\./);
    const schemas = doc.components.schemas;
    expect(schemas["io.k8s.api.apps.v1.Deployment"]["x-kubernetes-group-version-kind"]).toEqual([
      { group: "apps", kind: "Deployment", version: "v1" },
    ]);
    expect(schemas["io.k8s.api.apps.v1.DeploymentSpec"].properties.replicas).toMatchObject({
      type: "integer",
      format: "int32",
    });
    expect(schemas["io.k8s.api.apps.v1.DeploymentSpec"].properties.template.allOf).toEqual([
      { $ref: "#/components/schemas/io.k8s.api.core.v1.PodTemplateSpec" },
    ]);
    const containers = schemas["io.k8s.api.core.v1.PodSpec"].properties.containers;
    expect(containers).toMatchObject({
      type: "array",
      "x-kubernetes-list-map-keys": ["name"],
      "x-kubernetes-list-type": "map",
      "x-kubernetes-patch-merge-key": "name",
      "x-kubernetes-patch-strategy": "merge",
    });
    const patch = doc.paths["/apis/apps/v1/namespaces/{namespace}/deployments/{name}"].patch;
    expect(patch["x-kubernetes-group-version-kind"]).toEqual({
      group: "apps",
      kind: "Deployment",
      version: "v1",
    });
    expect(patch.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ in: "query", name: "fieldValidation" })]),
    );
    const notModified = await t.call("GET", url, { headers: { "if-none-match": `"${hash}"` } });
    expect(notModified.status).toBe(304);
  });

  it("redirects a stale hash to the current document", async () => {
    const res = await t.call("GET", "/openapi/v3/apis/apps/v1?hash=0123");
    expect(res.status).toBe(301);
    const current = (await t.call("GET", "/openapi/v3")).json.paths["apis/apps/v1"].serverRelativeURL;
    expect(res.headers.location).toBe(current);
  });
});

describe("fieldValidation", () => {
  const withUnknown = (name: string) => ({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, labelz: { a: "b" } },
    data: { a: "1" },
    bogus: true,
  });

  it("Strict rejects unknown fields on create with 400", async () => {
    const res = await t.call("POST", `${cms()}?fieldValidation=Strict`, { body: withUnknown("s1") });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      reason: "BadRequest",
      message:
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "metadata.labelz", unknown field "bogus"',
    });
  });

  it("Strict rejects duplicate fields", async () => {
    const raw = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup"},"data":{"a":"1","a":"2"}}`;
    const res = await t.call("POST", `${cms()}?fieldValidation=Strict`, { rawBody: raw });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "data.a"',
    );
  });

  it("Warn (also the default) drops unknown fields and warns", async () => {
    for (const [name, query] of [
      ["w1", "?fieldValidation=Warn"],
      ["w2", ""],
    ] as const) {
      const res = await t.call("POST", `${cms()}${query}`, { body: withUnknown(name) });
      expect(res.status).toBe(201);
      expect(res.json.bogus).toBeUndefined();
      expect(res.json.metadata.labelz).toBeUndefined();
      const warnings = ([] as string[]).concat(res.headers.warning ?? []).join(", ");
      expect(warnings).toContain('299 - "unknown field \\"bogus\\""');
      expect(warnings).toContain('299 - "unknown field \\"metadata.labelz\\""');
    }
  });

  it("Ignore drops unknown fields silently", async () => {
    const res = await t.call("POST", `${cms()}?fieldValidation=Ignore`, { body: withUnknown("i1") });
    expect(res.status).toBe(201);
    expect(res.json.bogus).toBeUndefined();
    expect(res.headers.warning).toBeUndefined();
  });

  it("Strict on a patch reports the patched object under `patch`", async () => {
    await t.call("POST", cms(), { body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "p1" } } });
    const res = await t.call("PATCH", `${cms()}/p1?fieldValidation=Strict`, {
      body: { spec: { x: 1 } },
      contentType: "application/merge-patch+json",
    });
    expect(res.status).toBe(422);
    expect(res.json.message).toMatch(
      /^ "" is invalid: patch: Invalid value: ".*": strict decoding error: unknown field "spec"$/,
    );
    expect(res.json.details.causes[0]).toMatchObject({ reason: "FieldValueInvalid", field: "patch" });
  });

  it("rejects an unknown directive with 422", async () => {
    const res = await t.call("POST", `${cms()}?fieldValidation=Loose`, { body: withUnknown("x") });
    expect(res.status).toBe(422);
    expect(res.json.message).toBe(
      'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Loose": supported values: "", "Ignore", "Strict", "Warn"',
    );
  });
});

describe("kubectl and OpenAPI", () => {
  const dir = mkdtempSync(join(tmpdir(), "kubesdk-openapi-"));
  const kubectl = kubectlFor(() => t.kubeconfigPath);

  it("explains built-in fields", async () => {
    const res = await kubectl("explain", "deployments.spec.replicas");
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("KIND:       Deployment");
    expect(res.stdout).toContain("VERSION:    v1");
    expect(res.stdout).toContain("FIELD: replicas <integer>");
    const nested = await kubectl("explain", "pods.spec.containers");
    expect(nested.stdout).toMatch(/image\s+<string>/);
  });

  it("applies with --validate=strict and reports unknown fields", async () => {
    const path = join(dir, "cm.json");
    writeFileSync(path, JSON.stringify({ ...withUnknownCm("k1"), bogus: 1 }));
    const strict = await kubectl("-n", ns, "apply", "--validate=strict", "-f", path);
    expect(strict.code).not.toBe(0);
    expect(strict.stderr).toContain('strict decoding error: unknown field "bogus"');
    const warn = await kubectl("-n", ns, "apply", "--validate=warn", "-f", path);
    expect(warn.code).toBe(0);
    expect(warn.stderr).toContain('Warning: unknown field "bogus"');
    expect(warn.stdout.trim()).toBe("configmap/k1 created");
  });
});

function withUnknownCm(name: string) {
  return { apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: { a: "1" } };
}
