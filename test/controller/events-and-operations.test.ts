/**
 * The event recorder writes events.k8s.io/v1 Events, merges repeats into a series, never blocks
 * and counts drops; the operations endpoint serves healthz, readyz and Prometheus metrics.
 */
import type { Kube } from "@kubesdk/client";
import {
  EventRecorder,
  Manager,
  PrometheusMetrics,
  serveOperations,
  silentLogger,
} from "@kubesdk/controller";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget } from "../support/target.js";
import { clientOf, createNamespace, deferred } from "./support.js";

describe("events and operations", () => {
  let t: TestTarget;
  let kube: Kube;
  let ns: string;

  beforeAll(async () => {
    t = await startTarget();
    kube = await clientOf(t);
    ns = await createNamespace(kube, "events");
  });

  afterAll(async () => {
    await kube
      ?.resource("v1", "Namespace")
      .delete(ns)
      .catch(() => {});
    await kube?.close();
    await t?.close();
  });

  it("repeats become one Event with a series; a full buffer drops and counts", async () => {
    const cm = await kube
      .resource("v1", "ConfigMap")
      .create({ metadata: { name: "subject" } }, { namespace: ns });
    const recorder = new EventRecorder({
      kube,
      reportingController: "test/recorder",
      reportingInstance: "i1",
      logger: silentLogger,
    });
    const note = { type: "Normal", reason: "Synced", action: "Sync", note: "all good" } as const;
    recorder.emit(cm, note);
    await recorder.flush();
    for (let i = 0; i < 4; i++) recorder.emit(cm, note);
    recorder.emit(cm, { ...note, type: "Warning", reason: "Failed", note: "boom" });
    await recorder.flush();
    const events = (await kube.resource("events.k8s.io/v1", "Event").list({ namespace: ns })).items;
    const synced = events.filter((e) => e.reason === "Synced");
    expect(synced).toHaveLength(1);
    expect(synced[0]?.series?.count).toBe(5);
    expect(synced[0]).toMatchObject({
      regarding: { kind: "ConfigMap", name: "subject" },
      reportingController: "test/recorder",
    });
    expect(events.filter((e) => e.reason === "Failed")).toHaveLength(1);

    const small = new EventRecorder({
      kube,
      reportingController: "test/recorder",
      reportingInstance: "i2",
      bufferSize: 2,
      logger: silentLogger,
    });
    for (let i = 0; i < 5; i++) small.emit(cm, { ...note, reason: `R${i}` });
    // The first went straight to the writer; two more fit the buffer; two are dropped.
    expect(small.dropped).toBe(2);
    await small.close();
    recorder.emit(cm, note);
    await recorder.close();
  });

  it("serves healthz, readyz with leader state, and metrics of reconciles and the queue", async () => {
    await kube.resource("v1", "ConfigMap").create({ metadata: { name: "m1" } }, { namespace: ns });
    const metrics = new PrometheusMetrics();
    const reconciled = deferred();
    const manager = new Manager({
      kube,
      logger: silentLogger,
      onLeaderChange: (l) => metrics.leader("m", l),
    });
    manager.controller({
      name: "cms",
      resource: kube.resource("v1", "ConfigMap"),
      namespace: ns,
      metrics,
      reconcile: ({ name }) => {
        if (name === "m1") reconciled.resolve();
        return undefined;
      },
    });
    const ops = await serveOperations(manager, { metrics });
    try {
      expect((await fetch(`${ops.url}/healthz`)).status).toBe(503);
      await manager.start();
      await reconciled.promise;
      expect((await fetch(`${ops.url}/healthz`)).status).toBe(200);
      const ready = await fetch(`${ops.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ ready: true, leadership: "disabled" });
      const text = await (await fetch(`${ops.url}/metrics`)).text();
      expect(text).toMatch(/controller_runtime_reconcile_total\{controller="cms",result="success"\} [1-9]/);
      expect(text).toMatch(/workqueue_adds_total\{name="cms"\} [1-9]/);
      expect(text).toContain("workqueue_queue_duration_seconds_bucket");
      expect((await fetch(`${ops.url}/nope`)).status).toBe(404);
    } finally {
      await manager.stop();
      await ops.close();
    }
    expect((await fetch(`${ops.url}/healthz`).catch(() => undefined))?.status).toBeUndefined();
  });
});
