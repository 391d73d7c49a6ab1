/**
 * @kubesdk/apply against a running server over HTTPS: conflict policies (fail, force, yield),
 * parsed conflicts, and extract round trips. Requests go through @kubesdk/transport.
 */
import {
  type ApplyConfiguration,
  ApplyConflictError,
  type ApplyRequest,
  applyWithPolicy,
  extract,
} from "@kubesdk/apply";
import type { appsV1 } from "@kubesdk/models";
import { createTransport, type HttpTransport, loadClusterConnection } from "@kubesdk/transport";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
let http: HttpTransport;
let ns: string;
const path = (name: string, sub?: string) =>
  `/apis/apps/v1/namespaces/${ns}/deployments/${name}${sub ? `/${sub}` : ""}`;

const sender =
  (name: string): ApplyRequest<appsV1.Deployment> =>
  async (config, o) => {
    const res = await http.requestJson<appsV1.Deployment>({
      method: "PATCH",
      path: path(name, o.subresource),
      query: {
        fieldManager: o.fieldManager,
        ...(o.force ? { force: "true" } : {}),
        ...(o.dryRun ? { dryRun: "All" } : {}),
      },
      body: JSON.stringify(config),
      contentType: "application/apply-patch+yaml",
    });
    return res.body;
  };

function desired(
  name: string,
  replicas: number,
  image = "nginx:1.27",
): ApplyConfiguration<appsV1.Deployment> {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, labels: { owner: "ctrl" } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "web", image }] } },
    },
  };
}

/** Another writer (an autoscaler) takes spec.replicas with a plain update. */
async function autoscale(name: string, replicas: number): Promise<void> {
  await http.requestJson({
    method: "PATCH",
    path: path(name),
    query: { fieldManager: "autoscaler" },
    body: { spec: { replicas } },
    contentType: "application/merge-patch+json",
  });
}

beforeAll(async () => {
  t = await startTarget();
  http = createTransport(await loadClusterConnection({ path: t.kubeconfigPath, inCluster: false }));
  ns = uniqueName("applypol");
  await http.requestJson({ method: "POST", path: "/api/v1/namespaces", body: { metadata: { name: ns } } });
});
afterAll(async () => {
  await http.requestJson({ method: "DELETE", path: `/api/v1/namespaces/${ns}` }).catch(() => {});
  await http.close();
  await t.close();
});

describe("conflict policies", () => {
  it("fail: throws ApplyConflictError with the parsed conflict", async () => {
    await applyWithPolicy(sender("p1"), desired("p1", 2), { fieldManager: "ctrl" });
    await autoscale("p1", 5);
    const err = await applyWithPolicy(sender("p1"), desired("p1", 3), { fieldManager: "ctrl" }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(ApplyConflictError);
    expect((err as ApplyConflictError).conflicts).toEqual([
      { manager: "autoscaler", operation: "Update", apiVersion: "apps/v1", path: ".spec.replicas" },
    ]);
  });

  it("fail: a field written through /scale names the subresource in the parsed conflict", async () => {
    await applyWithPolicy(sender("p3"), desired("p3", 2), { fieldManager: "ctrl" });
    await http.requestJson({
      method: "PATCH",
      path: path("p3", "scale"),
      query: { fieldManager: "autoscaler" },
      body: { spec: { replicas: 6 } },
      contentType: "application/merge-patch+json",
    });
    const err = await applyWithPolicy(sender("p3"), desired("p3", 3), { fieldManager: "ctrl" }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(ApplyConflictError);
    expect((err as ApplyConflictError).conflicts).toEqual([
      {
        manager: "autoscaler",
        operation: "Update",
        apiVersion: "apps/v1",
        subresource: "scale",
        path: ".spec.replicas",
      },
    ]);
    expect((err as ApplyConflictError).message).toBe(
      'Apply failed with 1 conflict: conflict with "autoscaler" with subresource "scale" using apps/v1: .spec.replicas',
    );
  });

  it("force: takes the field", async () => {
    const { object } = await applyWithPolicy(sender("p1"), desired("p1", 3), {
      fieldManager: "ctrl",
      conflicts: "force",
    });
    expect(object.spec?.replicas).toBe(3);
    const owners = (object.metadata?.managedFields ?? []).filter((e) =>
      JSON.stringify(e.fieldsV1).includes("f:replicas"),
    );
    expect(owners.map((e) => e.manager)).toEqual(["ctrl"]);
  });

  it("yield: leaves the conflicting field to its owner and applies the rest", async () => {
    await applyWithPolicy(sender("p2"), desired("p2", 2), { fieldManager: "ctrl" });
    await autoscale("p2", 7);
    const { object, yielded } = await applyWithPolicy(sender("p2"), desired("p2", 2, "nginx:1.28"), {
      fieldManager: "ctrl",
      conflicts: "yield",
    });
    expect(yielded.map((c) => [c.manager, c.path])).toEqual([["autoscaler", ".spec.replicas"]]);
    expect(object.spec?.replicas).toBe(7);
    expect(object.spec?.template.spec?.containers[0]?.image).toBe("nginx:1.28");
  });
});

describe("extract", () => {
  it("gives back exactly what the manager applied, and re-applying it changes nothing", async () => {
    const config = desired("e1", 2);
    const { object } = await applyWithPolicy(sender("e1"), config, { fieldManager: "ctrl" });
    const extracted = extract(object, "ctrl");
    expect(extracted).toEqual({ ...config, metadata: { ...config.metadata, namespace: ns } });
    const again = await applyWithPolicy(sender("e1"), extracted, { fieldManager: "ctrl" });
    expect(again.object.metadata?.resourceVersion).toBe(object.metadata?.resourceVersion);
  });

  it("leaves out fields other managers own and returns only identity for an unknown manager", async () => {
    await autoscale("e1", 9);
    const live = (await http.requestJson<appsV1.Deployment>({ method: "GET", path: path("e1") })).body;
    expect(live.spec?.replicas).toBe(9);
    // The autoscaler's update took spec.replicas from ctrl, so ctrl's extract no longer carries it.
    expect(extract(live, "ctrl").spec?.replicas).toBeUndefined();
    expect(extract(live, "ctrl").spec?.template?.spec?.containers?.[0]?.image).toBe("nginx:1.27");
    expect(extract(live, "nobody")).toEqual({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "e1", namespace: ns },
    });
  });
});
