/**
 * kubectl, a real client from outside, drives the server: create, client-side
 * apply, get -o json/yaml, chunked lists, selectors, stale replace, delete,
 * server dry-run, api-resources.
 */
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kubectlFor } from "../support/kubectl.js";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
let ns: string;

const kubectl = kubectlFor(() => t.kubeconfigPath);

function manifest(name: string, body: string): string {
  const path = join(tmpdir(), `${uniqueName(name)}.yaml`);
  writeFileSync(path, body);
  return path;
}

beforeAll(async () => {
  t = await startTarget();
  ns = uniqueName("kubectl");
  const res = await kubectl("create", "namespace", ns);
  expect(res.stderr).toBe("");
  expect(res.stdout.trim()).toBe(`namespace/${ns} created`);
});
afterAll(async () => {
  await kubectl("delete", "namespace", ns, "--wait=false");
  await t.close();
});

describe("kubectl against the server", () => {
  it("creates and reads back as JSON and YAML", async () => {
    expect((await kubectl("-n", ns, "create", "configmap", "k1", "--from-literal=a=1")).stdout.trim()).toBe(
      "configmap/k1 created",
    );
    const json = JSON.parse((await kubectl("-n", ns, "get", "configmap", "k1", "-o", "json")).stdout);
    expect(json.data).toEqual({ a: "1" });
    const yaml = (await kubectl("-n", ns, "get", "cm", "k1", "-o", "yaml")).stdout;
    expect(yaml).toContain("name: k1");
  });

  it("client-side apply creates, then configures", async () => {
    const path = manifest(
      "apply",
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  x: "1"\n`,
    );
    expect((await kubectl("-n", ns, "apply", "-f", path)).stdout.trim()).toBe("configmap/applied created");
    writeFileSync(path, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  x: "2"\n`);
    expect((await kubectl("-n", ns, "apply", "-f", path)).stdout.trim()).toBe("configmap/applied configured");
    expect((await kubectl("-n", ns, "get", "cm", "applied", "-o", "jsonpath={.data.x}")).stdout).toBe("2");
  });

  it("lists in chunks and by label", async () => {
    for (const n of ["c1", "c2", "c3"]) await kubectl("-n", ns, "create", "configmap", n);
    await kubectl("-n", ns, "label", "configmap", "c2", "pick=yes");
    const chunked = await kubectl("-n", ns, "get", "configmaps", "--chunk-size=1", "-o", "name");
    expect(chunked.stdout.split("\n").filter(Boolean)).toEqual(
      expect.arrayContaining(["configmap/c1", "configmap/c2", "configmap/c3"]),
    );
    const picked = await kubectl("-n", ns, "get", "configmaps", "-l", "pick=yes", "-o", "name");
    expect(picked.stdout.trim()).toBe("configmap/c2");
  });

  it("replace with a stale resourceVersion fails with a conflict", async () => {
    const obj = JSON.parse((await kubectl("-n", ns, "get", "configmap", "c1", "-o", "json")).stdout);
    await kubectl("-n", ns, "label", "configmap", "c1", "bump=1");
    const path = manifest("stale", JSON.stringify({ ...obj, data: { changed: "yes" } }));
    const res = await kubectl("-n", ns, "replace", "-f", path);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain("the object has been modified");
  });

  it("server-side dry run persists nothing", async () => {
    const res = await kubectl("-n", ns, "create", "configmap", "dry", "--dry-run=server");
    expect(res.stdout.trim()).toBe("configmap/dry created (server dry run)");
    const get = await kubectl("-n", ns, "get", "configmap", "dry");
    expect(get.code).not.toBe(0);
    expect(get.stderr).toContain('configmaps "dry" not found');
  });

  it("deletes", async () => {
    expect((await kubectl("-n", ns, "delete", "configmap", "c3")).stdout.trim()).toBe(
      'configmap "c3" deleted',
    );
  });

  it("api-resources lists built-ins with short names", async () => {
    const res = await kubectl("api-resources", "--no-headers");
    expect(res.code).toBe(0);
    const lines = res.stdout.split("\n");
    expect(lines.some((l) => /^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/.test(l))).toBe(true);
    expect(lines.some((l) => /^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/.test(l))).toBe(true);
  });
});
