/**
 * Quantities of built-in kinds are stored in Go's canonical form, whatever form they were written
 * in; writing the same amount in another form (update or server-side apply) changes nothing, so
 * the resourceVersion stays.
 */
import { describe, expect, it } from "vitest";
import { useTableSuite } from "./table-read.js";

const s = useTableSuite("quantities");

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes.
type Json = any;

async function ok(method: string, path: string, body: unknown, contentType?: string): Promise<Json> {
  const res = await s.t.call(method, path, { body, ...(contentType ? { contentType } : {}) });
  expect(res.status, res.text).toBeLessThan(300);
  return res.json;
}

const APPLY = "application/apply-patch+yaml";

describe("quantities are stored canonical", () => {
  it("resource quotas, limit ranges, claims and pod templates", async () => {
    const quota = await ok("POST", `/api/v1/namespaces/${s.ns}/resourcequotas`, {
      metadata: { name: "q" },
      spec: { hard: { cpu: "1000m", memory: "1024Mi", pods: "10", "requests.storage": "0.5", services: 3 } },
    });
    expect(quota.spec.hard).toEqual({
      cpu: "1",
      memory: "1Gi",
      pods: "10",
      "requests.storage": "500m",
      services: "3",
    });
    const limits = await ok("POST", `/api/v1/namespaces/${s.ns}/limitranges`, {
      metadata: { name: "l" },
      spec: {
        limits: [
          { type: "Pod", max: { cpu: "2000m", memory: "1e3" } },
          { type: "Container", default: { cpu: "2.0" }, defaultRequest: { cpu: "1.5" } },
        ],
      },
    });
    expect(limits.spec.limits[0].max).toEqual({ cpu: "2", memory: "1e3" });
    expect(limits.spec.limits[1].default).toEqual({ cpu: "2" });
    expect(limits.spec.limits[1].defaultRequest).toEqual({ cpu: "1500m" });
    // A Container limit's default comes from its max, its default request from the default, then min.
    const defaulted = await ok("POST", `/api/v1/namespaces/${s.ns}/limitranges`, {
      metadata: { name: "d" },
      spec: {
        limits: [
          {
            type: "Container",
            max: { cpu: "2000m", memory: "1Gi" },
            min: { cpu: "100m", "ephemeral-storage": "1e3" },
          },
          { type: "Pod", max: { cpu: "4" } },
        ],
      },
    });
    expect(defaulted.spec.limits).toEqual([
      {
        type: "Container",
        max: { cpu: "2", memory: "1Gi" },
        min: { cpu: "100m", "ephemeral-storage": "1e3" },
        default: { cpu: "2", memory: "1Gi" },
        defaultRequest: { cpu: "2", memory: "1Gi", "ephemeral-storage": "1e3" },
      },
      { type: "Pod", max: { cpu: "4" } },
    ]);
    const claim = await ok("POST", `/api/v1/namespaces/${s.ns}/persistentvolumeclaims`, {
      metadata: { name: "c" },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "2048Mi" } } },
    });
    expect(claim.spec.resources.requests).toEqual({ storage: "2Gi" });
    const template = await ok("POST", `/api/v1/namespaces/${s.ns}/podtemplates`, {
      metadata: { name: "p" },
      template: {
        spec: {
          containers: [
            {
              name: "c",
              image: "busybox",
              resources: { requests: { cpu: "100m", memory: "1000000" }, limits: { cpu: "0.25" } },
            },
          ],
        },
      },
    });
    expect(template.template.spec.containers[0].resources).toEqual({
      requests: { cpu: "100m", memory: "1M" },
      limits: { cpu: "250m" },
    });
  });

  it("the same amount written in another form is no change (update, patch, apply)", async () => {
    const path = `/api/v1/namespaces/${s.ns}/resourcequotas/same`;
    const applied = (cpu: string) => ({
      apiVersion: "v1",
      kind: "ResourceQuota",
      metadata: { name: "same" },
      spec: { hard: { cpu } },
    });
    const created = await ok("PATCH", `${path}?fieldManager=m`, applied("1000m"), APPLY);
    expect(created.spec.hard).toEqual({ cpu: "1" });
    const rv = created.metadata.resourceVersion;
    const reapplied = await ok("PATCH", `${path}?fieldManager=m`, applied("1000m"), APPLY);
    expect(reapplied.metadata.resourceVersion).toBe(rv);
    const again = await ok("PATCH", `${path}?fieldManager=m`, applied("1"), APPLY);
    expect(again.metadata.resourceVersion).toBe(rv);
    expect(again.metadata.managedFields).toEqual(created.metadata.managedFields);
    const put = await ok("PUT", path, { ...again, spec: { hard: { cpu: "1.0" } } });
    expect(put.metadata.resourceVersion).toBe(rv);
    const merged = await ok(
      "PATCH",
      path,
      { spec: { hard: { cpu: "1000m" } } },
      "application/merge-patch+json",
    );
    expect(merged.metadata.resourceVersion).toBe(rv);
    const changed = await ok(
      "PATCH",
      path,
      { spec: { hard: { cpu: "1500m" } } },
      "application/merge-patch+json",
    );
    expect(changed.spec.hard).toEqual({ cpu: "1500m" });
    expect(changed.metadata.resourceVersion).not.toBe(rv);
  });

  it("node capacity and allocatable", async () => {
    const name = `quantities-${Date.now().toString(36)}`;
    await ok("POST", "/api/v1/nodes", { metadata: { name } });
    try {
      const status = { capacity: { cpu: "4000m", memory: "8192Mi" }, allocatable: { pods: "110.0" } };
      const node = await ok(
        "PATCH",
        `/api/v1/nodes/${name}/status`,
        { status },
        "application/merge-patch+json",
      );
      expect(node.status.capacity).toEqual({ cpu: "4", memory: "8Gi" });
      // Allocatable defaults to the capacity only where it is left out.
      const second = `${name}-b`;
      const bare = await ok("POST", "/api/v1/nodes", { metadata: { name: second } });
      try {
        const capacity = { status: { capacity: { cpu: "2000m" } } };
        const reported = await ok(
          "PATCH",
          `/api/v1/nodes/${second}/status`,
          capacity,
          "application/merge-patch+json",
        );
        expect(reported.status.allocatable).toEqual({ cpu: "2" });
      } finally {
        await s.t.call("DELETE", `/api/v1/nodes/${bare.metadata.name}`);
      }
      expect(node.status.allocatable).toEqual({ pods: "110" });
    } finally {
      await s.t.call("DELETE", `/api/v1/nodes/${name}`);
    }
  });
});

describe("quantities Go refuses", () => {
  const FORMAT =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
  const create = (cpu: unknown) =>
    s.t.call("POST", `/api/v1/namespaces/${s.ns}/resourcequotas`, {
      body: { metadata: { generateName: "bad-" }, spec: { hard: { cpu } } },
    });

  it("a body with one is a 400 worded as the decoder", async () => {
    const prefix = 'ResourceQuota in version "v1" cannot be handled as a ResourceQuota: ';
    for (const [cpu, why] of [
      ["abc", FORMAT],
      ["", FORMAT],
      ["1.2.3", FORMAT],
      ["1K", "unable to parse quantity's suffix"],
      ["1Mi5", "unable to parse quantity's suffix"],
    ]) {
      const res = await create(cpu);
      expect(res.status, res.text).toBe(400);
      expect(res.json.message).toBe(prefix + why);
    }
  });

  it("a patch that produces one is a 422 on the patch", async () => {
    await ok("POST", `/api/v1/namespaces/${s.ns}/resourcequotas`, {
      metadata: { name: "patched" },
      spec: { hard: { cpu: "1" } },
    });
    const res = await s.t.call("PATCH", `/api/v1/namespaces/${s.ns}/resourcequotas/patched`, {
      body: { spec: { hard: { cpu: "abc" } } },
      contentType: "application/merge-patch+json",
    });
    expect(res.status, res.text).toBe(422);
    expect(res.json.details.causes[0].field).toBe("patch");
    expect(res.json.details.causes[0].message.endsWith(`": ${FORMAT}`)).toBe(true);
  });
});
