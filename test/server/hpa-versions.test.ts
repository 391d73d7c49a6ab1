/**
 * HorizontalPodAutoscalers are served in autoscaling/v2 (stored, preferred) and autoscaling/v1: an
 * object written in one version reads the same in the other, converted as kube-apiserver converts
 * it (v1's CPU target is v2's CPU Utilization metric; what v1 cannot hold travels in
 * `autoscaling.alpha.kubernetes.io/*` annotations, which v2 never shows) — for get, list, watch,
 * update, patches, apply, Tables (read and watched), discovery and kubectl.
 */
import { describe, expect, it } from "vitest";
import { kubectlFor } from "../support/kubectl.js";
import { openWatch } from "../support/watch-client.js";
import { putStatus, TABLE, useTableSuite } from "./table-read.js";

const s = useTableSuite("hpa-versions");
const at = (v: string, name = "") =>
  `/apis/autoscaling/${v}/namespaces/${s.ns}/horizontalpodautoscalers${name ? `/${name}` : ""}`;
const TARGET = { kind: "Deployment", name: "web", apiVersion: "apps/v1" };
const cpu = (averageUtilization: number) => ({
  type: "Resource",
  resource: { name: "cpu", target: { type: "Utilization", averageUtilization } },
});

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes.
type Json = any;

async function ok(method: string, path: string, body?: unknown, contentType?: string): Promise<Json> {
  const res = await s.t.call(method, path, {
    ...(body === undefined ? {} : { body }),
    ...(contentType ? { contentType } : {}),
  });
  expect(res.status, res.text).toBeLessThan(300);
  return res.json;
}

/** The object without the metadata the server sets. */
function stable(obj: Json): Json {
  const { uid: _u, resourceVersion: _r, creationTimestamp: _c, managedFields: _m, ...meta } = obj.metadata;
  return { ...obj, metadata: meta };
}

function v1Hpa(name: string, spec: Json = {}, annotations?: Json): Json {
  return {
    apiVersion: "autoscaling/v1",
    kind: "HorizontalPodAutoscaler",
    metadata: { name, ...(annotations ? { annotations } : {}) },
    spec: { scaleTargetRef: TARGET, maxReplicas: 5, ...spec },
  };
}

/** A v2 HPA whose metrics and behavior v1 cannot express. */
const richV2 = (name: string): Json => ({
  apiVersion: "autoscaling/v2",
  kind: "HorizontalPodAutoscaler",
  metadata: { name },
  spec: {
    scaleTargetRef: TARGET,
    maxReplicas: 5,
    metrics: [
      cpu(60),
      {
        type: "Pods",
        pods: { metric: { name: "qps" }, target: { type: "AverageValue", averageValue: "10" } },
      },
      { type: "External", external: { metric: { name: "q" }, target: { type: "Value", value: "2k" } } },
    ],
    behavior: {
      scaleUp: { stabilizationWindowSeconds: 30, policies: [{ type: "Pods", value: 2, periodSeconds: 60 }] },
    },
  },
});

const RICH_METRICS =
  '[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10"}},' +
  '{"type":"External","external":{"metricName":"q","targetValue":"2k"}}]';
const RICH_BEHAVIOR =
  '{"ScaleUp":{"StabilizationWindowSeconds":30,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":2,"PeriodSeconds":60}],"Tolerance":null},' +
  '"ScaleDown":{"StabilizationWindowSeconds":null,"SelectPolicy":"Max","Policies":[{"Type":"Percent","Value":100,"PeriodSeconds":15}],"Tolerance":null}}';

describe("HorizontalPodAutoscaler in autoscaling/v1 and autoscaling/v2", () => {
  it("created in v1 with a CPU target, reads in v2 as a CPU Utilization metric and back", async () => {
    const created = await ok(
      "POST",
      at("v1"),
      v1Hpa("a", { targetCPUUtilizationPercentage: 50 }, { x: "1" }),
    );
    const v1 = {
      apiVersion: "autoscaling/v1",
      kind: "HorizontalPodAutoscaler",
      metadata: { name: "a", namespace: s.ns, generation: 1, annotations: { x: "1" } },
      spec: { scaleTargetRef: TARGET, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 50 },
      status: { currentReplicas: 0, desiredReplicas: 0 },
    };
    expect(stable(created)).toEqual(v1);
    const v2 = await ok("GET", at("v2", "a"));
    expect(stable(v2)).toEqual({
      apiVersion: "autoscaling/v2",
      kind: "HorizontalPodAutoscaler",
      metadata: v1.metadata,
      spec: { scaleTargetRef: TARGET, minReplicas: 1, maxReplicas: 5, metrics: [cpu(50)] },
      status: { currentMetrics: null, desiredReplicas: 0 },
    });
    expect(v2.metadata.uid).toBe(created.metadata.uid);
    expect(stable(await ok("GET", at("v1", "a")))).toEqual(v1);
  });

  it("a v1 HPA without a CPU target gets v1's implied 80% in v2", async () => {
    await ok("POST", at("v1"), v1Hpa("implied"));
    expect((await ok("GET", at("v2", "implied"))).spec.metrics).toEqual([cpu(80)]);
    expect((await ok("GET", at("v1", "implied"))).spec.targetCPUUtilizationPercentage).toBe(80);
  });

  it("v2 metrics and behavior v1 cannot express are v1 annotations, never v2's", async () => {
    await ok("POST", at("v2"), richV2("rich"));
    const v1 = await ok("GET", at("v1", "rich"));
    expect(v1.spec.targetCPUUtilizationPercentage).toBe(60);
    expect(v1.metadata.annotations).toEqual({
      "autoscaling.alpha.kubernetes.io/metrics": RICH_METRICS,
      "autoscaling.alpha.kubernetes.io/behavior": RICH_BEHAVIOR,
    });
    // A read-modify-write through v1 keeps what only v2 holds.
    v1.spec.maxReplicas = 7;
    const updated = await ok("PUT", at("v1", "rich"), v1);
    expect(updated.metadata.annotations).toEqual(v1.metadata.annotations);
    const v2 = await ok("GET", at("v2", "rich"));
    expect(v2.metadata.annotations).toBeUndefined();
    expect(v2.spec.maxReplicas).toBe(7);
    expect(v2.spec.metrics).toEqual([...richV2("rich").spec.metrics.slice(1), cpu(60)]);
    expect(v2.spec.behavior.scaleUp).toEqual({
      stabilizationWindowSeconds: 30,
      selectPolicy: "Max",
      policies: [{ type: "Pods", value: 2, periodSeconds: 60 }],
    });
  });

  it("annotations written in v1 become v2 metrics", async () => {
    const metrics = '[{"type":"Resource","resource":{"name":"memory","targetAverageValue":"100Mi"}}]';
    await ok("POST", at("v1"), v1Hpa("ann", {}, { "autoscaling.alpha.kubernetes.io/metrics": metrics }));
    const v2 = await ok("GET", at("v2", "ann"));
    expect(v2.metadata.annotations).toBeUndefined();
    expect(v2.spec.metrics).toEqual([
      {
        type: "Resource",
        resource: { name: "memory", target: { type: "AverageValue", averageValue: "100Mi" } },
      },
    ]);
    const v1 = await ok("GET", at("v1", "ann"));
    expect(v1.metadata.annotations).toEqual({ "autoscaling.alpha.kubernetes.io/metrics": metrics });
    expect(v1.spec.targetCPUUtilizationPercentage).toBeUndefined();
  });

  it("a v2 status reads in v1 as the CPU utilization and annotations", async () => {
    await ok("POST", at("v2"), { ...richV2("st"), spec: { scaleTargetRef: TARGET, maxReplicas: 5 } });
    const condition = {
      type: "AbleToScale",
      status: "True",
      lastTransitionTime: "2026-01-02T03:04:05Z",
      reason: "ReadyForNewScale",
    };
    await putStatus(s.t, at("v2", "st"), {
      currentReplicas: 2,
      desiredReplicas: 3,
      currentMetrics: [
        {
          type: "Resource",
          resource: { name: "cpu", current: { averageUtilization: 42, averageValue: "100m" } },
        },
      ],
      conditions: [condition],
    });
    const v1 = await ok("GET", at("v1", "st"));
    expect(v1.status).toEqual({
      currentReplicas: 2,
      desiredReplicas: 3,
      currentCPUUtilizationPercentage: 42,
    });
    expect(v1.metadata.annotations).toEqual({
      "autoscaling.alpha.kubernetes.io/current-metrics":
        '[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":42,"currentAverageValue":"100m"}}]',
      "autoscaling.alpha.kubernetes.io/conditions": JSON.stringify([condition]),
    });
  });

  it("merge, strategic and apply patches through v1 change the stored v2 object", async () => {
    await ok("POST", at("v1"), v1Hpa("p", { targetCPUUtilizationPercentage: 50 }));
    await ok(
      "PATCH",
      at("v1", "p"),
      { spec: { targetCPUUtilizationPercentage: 55 } },
      "application/merge-patch+json",
    );
    expect((await ok("GET", at("v2", "p"))).spec.metrics).toEqual([cpu(55)]);
    await ok("PATCH", at("v1", "p"), { spec: { maxReplicas: 9 } }, "application/strategic-merge-patch+json");
    expect((await ok("GET", at("v2", "p"))).spec.maxReplicas).toBe(9);
    const applied = v1Hpa("p", { targetCPUUtilizationPercentage: 65, maxReplicas: 9 });
    const res = await s.t.call("PATCH", `${at("v1", "p")}?fieldManager=tester&force=true`, {
      body: applied,
      contentType: "application/apply-patch+yaml",
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.spec.targetCPUUtilizationPercentage).toBe(65);
    expect((await ok("GET", at("v2", "p"))).spec.metrics).toEqual([cpu(65)]);
  });

  it("lists and watches in v1 show v2 writes in v1's shape", async () => {
    const list = await ok("GET", at("v1"));
    const w = await openWatch(s.t, `${at("v1")}?watch=true&resourceVersion=${list.metadata.resourceVersion}`);
    try {
      await ok("POST", at("v2"), richV2("watched"));
      const seen = await w.until((e) => e.object.metadata?.name === "watched");
      const ev = seen[seen.length - 1];
      expect(ev?.type).toBe("ADDED");
      expect(ev?.object.apiVersion).toBe("autoscaling/v1");
      expect(ev?.object.spec.targetCPUUtilizationPercentage).toBe(60);
      expect(ev?.object.metadata.annotations["autoscaling.alpha.kubernetes.io/metrics"]).toBe(RICH_METRICS);
    } finally {
      await w.close();
    }
    const after = await ok("GET", at("v1"));
    expect(after.apiVersion).toBe("autoscaling/v1");
    expect(after.kind).toBe("HorizontalPodAutoscalerList");
    const watched = after.items.find((o: Json) => o.metadata.name === "watched");
    expect(watched.spec.targetCPUUtilizationPercentage).toBe(60);
  });

  it("a v1 Table prints the stored v2 metrics, in their order", async () => {
    const rv = (await ok("GET", at("v1"))).metadata.resourceVersion;
    const w = await openWatch(s.t, `${at("v1")}?watch=true&resourceVersion=${rv}`, TABLE);
    await ok("POST", at("v2"), richV2("tbl"));
    try {
      const seen = await w.until((e) => e.object.rows?.[0]?.cells?.[0] === "tbl");
      expect(seen[seen.length - 1]?.object.rows[0].cells[2]).toBe(
        "cpu: <unknown>/60%, <unknown>/10 + 1 more...",
      );
    } finally {
      await w.close();
    }
    const res = await s.t.call("GET", at("v1", "tbl"), { accept: TABLE });
    expect(res.status, res.text).toBe(200);
    expect(res.json.rows[0].cells.slice(0, 3)).toEqual([
      "tbl",
      "Deployment/web",
      "cpu: <unknown>/60%, <unknown>/10 + 1 more...",
    ]);
    const list = await s.t.call("GET", at("v1"), { accept: TABLE });
    const row = list.json.rows.find((r: Json) => r.cells[0] === "tbl");
    expect(row.cells[2]).toBe("cpu: <unknown>/60%, <unknown>/10 + 1 more...");
  });

  it("discovery serves both versions, v2 preferred", async () => {
    const group = await ok("GET", "/apis/autoscaling");
    expect(group.versions).toEqual([
      { groupVersion: "autoscaling/v2", version: "v2" },
      { groupVersion: "autoscaling/v1", version: "v1" },
    ]);
    expect(group.preferredVersion).toEqual({ groupVersion: "autoscaling/v2", version: "v2" });
    const v1 = await ok("GET", "/apis/autoscaling/v1");
    expect(v1.resources.map((r: Json) => [r.name, r.kind, r.namespaced])).toEqual([
      ["horizontalpodautoscalers", "HorizontalPodAutoscaler", true],
      ["horizontalpodautoscalers/status", "HorizontalPodAutoscaler", true],
    ]);
    const res = await s.t.call("GET", "/apis", {
      accept: "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
    });
    expect(res.status, res.text).toBe(200);
    const autoscaling = res.json.items.find((g: Json) => g.metadata.name === "autoscaling");
    expect(
      autoscaling.versions.map((v: Json) => [v.version, v.resources.map((r: Json) => r.resource)]),
    ).toEqual([
      ["v2", ["horizontalpodautoscalers"]],
      ["v1", ["horizontalpodautoscalers"]],
    ]);
  });

  it("kubectl autoscale creates an HPA that kubectl get hpa shows in either version", async () => {
    const kubectl = kubectlFor(() => s.t.kubeconfigPath, s.ns);
    // kubectl autoscale reads the target first.
    await ok("POST", `/apis/apps/v1/namespaces/${s.ns}/deployments`, {
      metadata: { name: "web" },
      spec: {
        selector: { matchLabels: { app: "web" } },
        template: {
          metadata: { labels: { app: "web" } },
          spec: { containers: [{ name: "c", image: "nginx" }] },
        },
      },
    });
    const made = await kubectl("autoscale", "deployment", "web", "--max=4", "--cpu-percent=70", "--name=cli");
    expect(made.stderr).toBe("");
    expect(made.stdout.trim()).toBe("horizontalpodautoscaler.autoscaling/cli autoscaled");
    // kubectl get picks the preferred version whatever the resource names: read v1 raw.
    const v1 = await kubectl("get", "--raw", at("v1", "cli"));
    expect(JSON.parse(v1.stdout).spec.targetCPUUtilizationPercentage).toBe(70);
    const table = await kubectl("get", "hpa", "cli", "--no-headers");
    expect(table.stdout.split(/\s+/).slice(0, 5)).toEqual([
      "cli",
      "Deployment/web",
      "cpu:",
      "<unknown>/70%",
      "1",
    ]);
  });
});
