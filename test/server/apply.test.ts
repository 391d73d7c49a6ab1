import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kubectlFor } from "../support/kubectl.js";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
let ns: string;
const APPLY = "application/apply-patch+yaml";
const deps = () => `/apis/apps/v1/namespaces/${ns}/deployments`;
type Entry = { manager: string; operation: string; apiVersion: string; fieldsV1: Record<string, unknown> };
const managed = (o: { metadata: { managedFields?: Entry[] } }) => o.metadata.managedFields ?? [];
const entry = (o: { metadata: { managedFields?: Entry[] } }, m: string, op = "Apply") =>
  managed(o).find((e) => e.manager === m && e.operation === op);
/** Whether manager `m`'s Apply entry owns `.spec.replicas`. */
const ownsReplicas = (o: { metadata: { managedFields?: Entry[] } }, m: string) =>
  (entry(o, m)?.fieldsV1["f:spec"] as Record<string, unknown> | undefined)?.["f:replicas"] !== undefined;

function deployment(name: string, spec: Record<string, unknown> = {}) {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: "web", image: "nginx:1" }] },
      },
      ...spec,
    },
  };
}
const apply = (path: string, body: unknown, query = "fieldManager=alice") =>
  t.call("PATCH", `${path}?${query}`, { body, contentType: APPLY });

beforeAll(async () => {
  t = await startTarget();
  ns = uniqueName("ssa");
  await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
});
afterAll(async () => {
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t.close();
});

describe("server-side apply: request validation", () => {
  it("requires fieldManager (422)", async () => {
    const res = await apply(`${deps()}/v1`, deployment("v1"), "");
    expect(res.status).toBe(422);
    expect(res.json.message).toBe(
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    );
  });

  it("rejects force on a non-apply patch (422)", async () => {
    await apply(`${deps()}/v2`, deployment("v2"));
    const res = await t.call("PATCH", `${deps()}/v2?force=true`, {
      body: {},
      contentType: "application/merge-patch+json",
    });
    expect(res.status).toBe(422);
    expect(res.json.message).toContain("force: Forbidden: may not be specified for non-apply patch");
  });

  it("rejects managedFields in the body (400) and a mismatched apiVersion (400)", async () => {
    const withMf = { ...deployment("v3"), metadata: { name: "v3", managedFields: [{ manager: "x" }] } };
    expect((await apply(`${deps()}/v3`, withMf)).status).toBe(400);
    expect((await apply(`${deps()}/v3`, { ...deployment("v3"), apiVersion: "apps/v1beta1" })).status).toBe(
      400,
    );
  });
});

describe("server-side apply: ownership", () => {
  it("creates on apply (201) with an Apply entry; re-applying the same is a no-op", async () => {
    const res = await apply(`${deps()}/a1`, deployment("a1", { replicas: 2 }));
    expect(res.status).toBe(201);
    const e = entry(res.json, "alice");
    expect(e).toMatchObject({ operation: "Apply", apiVersion: "apps/v1", fieldsType: "FieldsV1" });
    expect(ownsReplicas(res.json, "alice")).toBe(true);
    const again = await apply(`${deps()}/a1`, deployment("a1", { replicas: 2 }));
    expect(again.status).toBe(200);
    expect(again.json.metadata.resourceVersion).toBe(res.json.metadata.resourceVersion);
  });

  it("re-applying or putting back the same a second later is still no write (only the entries' times would differ)", async () => {
    const res = await apply(`${deps()}/a9`, deployment("a9", { replicas: 1 }));
    expect(res.status).toBe(201);
    const made = Date.parse(entry(res.json, "alice")?.time as string);
    // The entries' times have whole seconds: wait until the server's next second has surely begun.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, made + 1100 - Date.now())));
    const again = await apply(`${deps()}/a9`, deployment("a9", { replicas: 1 }));
    expect(again.status).toBe(200);
    expect(again.json.metadata.resourceVersion).toBe(res.json.metadata.resourceVersion);
    expect(entry(again.json, "alice")?.time).toBe(entry(res.json, "alice")?.time);
    const put = await t.call("PUT", `${deps()}/a9?fieldManager=alice`, { body: again.json });
    expect(put.status).toBe(200);
    expect(put.json.metadata.resourceVersion).toBe(res.json.metadata.resourceVersion);
    expect(put.json.metadata.managedFields).toEqual(res.json.metadata.managedFields);
  });

  it("a different value from another applier is a 409 with the exact message and causes", async () => {
    const res = await apply(
      `${deps()}/a1`,
      { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "a1" }, spec: { replicas: 5 } },
      "fieldManager=bob",
    );
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({
      status: "Failure",
      reason: "Conflict",
      code: 409,
      message: 'Apply failed with 1 conflict: conflict with "alice": .spec.replicas',
      details: {
        causes: [
          { reason: "FieldManagerConflict", message: 'conflict with "alice"', field: ".spec.replicas" },
        ],
      },
    });
  });

  it("the same value is shared ownership, not a conflict", async () => {
    const res = await apply(
      `${deps()}/a1`,
      { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "a1" }, spec: { replicas: 2 } },
      "fieldManager=bob",
    );
    expect(res.status).toBe(200);
    expect(ownsReplicas(res.json, "bob")).toBe(true);
    expect(ownsReplicas(res.json, "alice")).toBe(true);
  });

  it("force=true takes the field: the other manager loses it", async () => {
    const res = await apply(
      `${deps()}/a1`,
      { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "a1" }, spec: { replicas: 7 } },
      "fieldManager=carol&force=true",
    );
    expect(res.status).toBe(200);
    expect(res.json.spec.replicas).toBe(7);
    expect(ownsReplicas(res.json, "carol")).toBe(true);
    expect(ownsReplicas(res.json, "alice")).toBe(false);
    expect(ownsReplicas(res.json, "bob")).toBe(false);
  });

  it("conflicts with an Update manager name its apiVersion", async () => {
    const created = await t.call("POST", `${deps()}?fieldManager=kubectl-client-side-apply`, {
      body: deployment("u1", { replicas: 1 }),
    });
    expect(created.status).toBe(201);
    const res = await apply(`${deps()}/u1`, {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "u1" },
      spec: { replicas: 3 },
    });
    expect(res.status).toBe(409);
    expect(res.json.message).toBe(
      'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas',
    );
  });

  it("several conflicts are listed per manager", async () => {
    await t.call("POST", `/api/v1/namespaces/${ns}/configmaps?fieldManager=writer`, {
      body: { metadata: { name: "mc" }, data: { a: "1", b: "1" } },
    });
    const res = await apply(`/api/v1/namespaces/${ns}/configmaps/mc`, {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "mc" },
      data: { a: "2", b: "2" },
    });
    expect(res.status).toBe(409);
    expect(res.json.message).toBe(
      'Apply failed with 2 conflicts: conflicts with "writer" using v1:\n- .data.a\n- .data.b',
    );
    expect(res.json.details.causes.map((c: { field: string }) => c.field)).toEqual([".data.a", ".data.b"]);
  });

  it("removes fields the applier stopped applying unless someone else owns them", async () => {
    const cm = `/api/v1/namespaces/${ns}/configmaps/rm`;
    await apply(cm, {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "rm" },
      data: { mine: "1", shared: "1" },
    });
    await apply(
      cm,
      { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "rm" }, data: { shared: "1" } },
      "fieldManager=other",
    );
    const res = await apply(cm, {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "rm" },
      data: { kept: "1" },
    });
    expect(res.json.data).toEqual({ shared: "1", kept: "1" });
  });

  it("merges map-list items by key between appliers", async () => {
    const path = `${deps()}/ml`;
    await apply(path, deployment("ml"));
    const sidecar = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "ml" },
      spec: { template: { spec: { containers: [{ name: "sidecar", image: "busybox" }] } } },
    };
    const res = await apply(path, sidecar, "fieldManager=injector");
    expect(res.status).toBe(200);
    expect(res.json.spec.template.spec.containers.map((c: { name: string }) => c.name).sort()).toEqual([
      "sidecar",
      "web",
    ]);
    // biome-ignore lint/suspicious/noExplicitAny: walking a fieldsV1 tree.
    const inj = entry(res.json, "injector")?.fieldsV1 as any;
    expect(Object.keys(inj["f:spec"]["f:template"]["f:spec"]["f:containers"])).toEqual([
      'k:{"name":"sidecar"}',
    ]);
  });

  it("dry-run apply persists nothing", async () => {
    const res = await apply(`${deps()}/dry`, deployment("dry"), "fieldManager=alice&dryRun=All");
    expect(res.status).toBe(201);
    expect((await t.call("GET", `${deps()}/dry`)).status).toBe(404);
  });
});

describe("apply to the status subresource", () => {
  it("owns status fields under the status subresource, leaving the spec alone", async () => {
    await apply(`${deps()}/st`, deployment("st"));
    const res = await t.call("PATCH", `${deps()}/st/status?fieldManager=status-writer`, {
      body: {
        apiVersion: "apps/v1",
        kind: "Deployment",
        metadata: { name: "st" },
        status: { replicas: 1 },
        spec: { replicas: 9 },
      },
      contentType: APPLY,
    });
    expect(res.status).toBe(200);
    expect(res.json.status.replicas).toBe(1);
    expect(res.json.spec.replicas).not.toBe(9);
    const e = managed(res.json).find((x) => x.manager === "status-writer") as Entry & {
      subresource?: string;
    };
    expect(e).toMatchObject({ operation: "Apply", subresource: "status" });
    expect(Object.keys(e.fieldsV1)).toEqual(["f:status"]);
  });
});

describe("kubectl apply --server-side", () => {
  it("upgrades an object from client-side apply without conflicts", async () => {
    const kubectl = kubectlFor(() => t.kubeconfigPath, ns);
    const file = join(tmpdir(), `${uniqueName("csa")}.yaml`);
    writeFileSync(
      file,
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: upgrade\ndata:\n  a: "1"\n  b: "1"\n`,
    );
    expect((await kubectl("apply", "-f", file)).stdout.trim()).toBe("configmap/upgrade created");
    const before = JSON.parse(
      (await kubectl("get", "configmap", "upgrade", "-o", "json", "--show-managed-fields")).stdout,
    );
    expect(before.metadata.annotations["kubectl.kubernetes.io/last-applied-configuration"]).toBeTruthy();
    expect(before.metadata.managedFields.map((e: { manager: string }) => e.manager)).toEqual([
      "kubectl-client-side-apply",
    ]);
    writeFileSync(file, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: upgrade\ndata:\n  a: "2"\n`);
    const ssa = await kubectl("apply", "--server-side", "-f", file);
    expect(ssa.stderr).toBe("");
    expect(ssa.stdout.trim()).toBe("configmap/upgrade serverside-applied");
    const after = JSON.parse(
      (await kubectl("get", "configmap", "upgrade", "-o", "json", "--show-managed-fields")).stdout,
    );
    // The field kubectl stopped applying is gone: ownership moved from the client-side manager.
    expect(after.data).toEqual({ a: "2" });
    expect(
      after.metadata.managedFields.map((e: { manager: string; operation: string }) => [
        e.manager,
        e.operation,
      ]),
    ).toContainEqual(["kubectl", "Apply"]);
  });

  it("applies with a field manager, reports a conflict, and takes over with --force-conflicts", async () => {
    const kubectl = kubectlFor(() => t.kubeconfigPath, ns);
    const file = join(tmpdir(), `${uniqueName("ssa")}.yaml`);
    writeFileSync(file, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kc\ndata:\n  k: "1"\n`);
    const first = await kubectl("apply", "--server-side", "--field-manager=team-a", "-f", file);
    expect(first.stdout.trim()).toBe("configmap/kc serverside-applied");
    writeFileSync(file, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kc\ndata:\n  k: "2"\n`);
    const conflict = await kubectl("apply", "--server-side", "--field-manager=team-b", "-f", file);
    expect(conflict.code).not.toBe(0);
    expect(conflict.stderr).toContain('conflict with "team-a"');
    const forced = await kubectl(
      "apply",
      "--server-side",
      "--field-manager=team-b",
      "--force-conflicts",
      "-f",
      file,
    );
    expect(forced.stdout.trim()).toBe("configmap/kc serverside-applied");
    const obj = JSON.parse(
      (await kubectl("get", "configmap", "kc", "-o", "json", "--show-managed-fields")).stdout,
    );
    expect(obj.data.k).toBe("2");
    expect(obj.metadata.managedFields.map((e: { manager: string }) => e.manager)).toContain("team-b");
  });
});
