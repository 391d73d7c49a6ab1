/**
 * Controller behaviour against a server: watched resources mapped to keys by the user, the last
 * known state of a deleted object, the error policy's rate-limited requeue, concurrency without
 * one key in two workers, two controllers of one manager sharing one informer, and work gates
 * (keys a gate turns away are kept; a gate's lapse aborts the reconcile and refuses fenced writes).
 */
import type { Kube } from "@kubesdk/client";
import {
  Action,
  addFinalizer,
  ControllerError,
  Manager,
  type ReconcileRequest,
  silentLogger,
  type WorkGate,
} from "@kubesdk/controller";
import type { coreV1 } from "@kubesdk/models";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget } from "../support/target.js";
import { clientOf, createNamespace, deferred } from "./support.js";

describe("controller", () => {
  let t: TestTarget;
  let kube: Kube;

  beforeAll(async () => {
    t = await startTarget();
    kube = await clientOf(t);
  });

  afterAll(async () => {
    await kube?.close();
    await t?.close();
  });

  it("maps a watched resource to keys, passes the last known state of a deleted object, retries errors rate-limited", async () => {
    const ns = await createNamespace(kube, "ctl");
    const cms = kube.resource("v1", "ConfigMap");
    const seen: string[] = [];
    const gone = deferred<coreV1.ConfigMap | undefined>();
    const retried = deferred<number>();
    let failures = 0;
    const manager = new Manager({ kube, logger: silentLogger });
    manager.controller({
      name: "cm",
      resource: cms,
      namespace: ns,
      logger: silentLogger,
      // A Secret labelled for=<name> wakes the ConfigMap of that name.
      watches: [
        {
          resource: kube.resource("v1", "Secret"),
          map: (s: coreV1.Secret) => (s.metadata?.labels?.for ? [`${ns}/${s.metadata.labels.for}`] : []),
        },
      ],
      reconcile: ({ key, object, lastKnown, retries }) => {
        seen.push(`${key}:${object ? "present" : "gone"}`);
        if (key.endsWith("/flaky") && object) {
          if (failures++ < 2) throw new Error("not yet");
          retried.resolve(retries);
        }
        if (key.endsWith("/doomed") && !object) gone.resolve(lastKnown);
        return Action.done();
      },
    });
    await manager.start();
    try {
      await cms.create({ metadata: { name: "flaky" } }, { namespace: ns });
      expect(await retried.promise).toBe(2);

      await cms.create({ metadata: { name: "doomed", labels: { keep: "me" } } }, { namespace: ns });
      await cms.delete("doomed", { namespace: ns });
      const last = await gone.promise;
      expect(last?.metadata?.labels).toEqual({ keep: "me" });

      await cms.create({ metadata: { name: "target" } }, { namespace: ns });
      const before = seen.filter((s) => s === `${ns}/target:present`).length;
      const woke = deferred();
      const check = () =>
        seen.filter((s) => s === `${ns}/target:present`).length > before
          ? woke.resolve()
          : setImmediate(check);
      await kube
        .resource("v1", "Secret")
        .create({ metadata: { name: "s", labels: { for: "target" } } }, { namespace: ns });
      check();
      await woke.promise;
    } finally {
      await manager.stop();
    }
  });

  it("at concurrency 4 never reconciles one key in two workers, and two controllers share one informer", async () => {
    const ns = await createNamespace(kube, "ctl");
    const cms = kube.resource("v1", "ConfigMap");
    for (let i = 0; i < 8; i++)
      await cms.create({ metadata: { name: `c${i}` }, data: { v: "0" } }, { namespace: ns });
    const active = new Set<string>();
    const overlaps: string[] = [];
    let maxParallel = 0;
    let reconciles = 0;
    const enough = deferred();
    // One manager, one informer factory: both controllers watch through it.
    const manager = new Manager({ kube, logger: silentLogger });
    const make = (name: string) =>
      manager.controller({
        name,
        resource: cms,
        namespace: ns,
        concurrency: 4,
        resyncPeriodMs: 20,
        logger: silentLogger,
        reconcile: async ({ key }) => {
          const id = `${name}:${key}`;
          if (active.has(id)) overlaps.push(id);
          active.add(id);
          maxParallel = Math.max(maxParallel, [...active].filter((a) => a.startsWith(name)).length);
          await cms.get(key.split("/")[1] as string, { namespace: ns });
          active.delete(id);
          if (++reconciles >= 200) enough.resolve();
          return undefined;
        },
      });
    const a = make("a");
    const b = make("b");
    await manager.start();
    try {
      await enough.promise;
      expect(a.primary).toBe(b.primary);
      expect(overlaps).toEqual([]);
      expect(maxParallel).toBeGreaterThan(1);
    } finally {
      await manager.stop();
    }
  });

  it("a gate that does not admit keeps the key (parked, not lost); its lapse aborts the reconcile and refuses fenced writes", async () => {
    const ns = await createNamespace(kube, "ctl");
    const cms = kube.resource("v1", "ConfigMap");
    await cms.create({ metadata: { name: "gated" } }, { namespace: ns });
    let open = false;
    const permission = new AbortController();
    const gate: WorkGate = { admits: () => open, signal: () => permission.signal };
    const started = deferred<ReconcileRequest<coreV1.ConfigMap>>();
    const finished = deferred<unknown>();
    let reconciles = 0;
    const manager = new Manager({ kube, logger: silentLogger });
    const controller = manager.controller({
      name: "gated",
      resource: cms,
      namespace: ns,
      gates: [gate],
      reconcile: async (request) => {
        reconciles++;
        started.resolve(request);
        await new Promise((r) => request.signal.addEventListener("abort", r, { once: true }));
        // The permission lapsed: a write given the request as fence must not go out.
        finished.resolve(
          await addFinalizer(cms, request.object as coreV1.ConfigMap, "example.com/x", request).catch(
            (e) => e,
          ),
        );
        return Action.done();
      },
    });
    await manager.start();
    try {
      const parked = deferred();
      const poll = () => (controller.parked > 0 ? parked.resolve() : setImmediate(poll));
      poll();
      await parked.promise;
      expect(reconciles).toBe(0);
      open = true;
      controller.readmit();
      const request = await started.promise;
      open = false;
      permission.abort(new ControllerError("LEADERSHIP_LOST", "test: permission lapsed"));
      expect(request.signal.aborted).toBe(true);
      expect(() => request.check()).toThrow(ControllerError);
      const refused = await finished.promise;
      expect(refused).toBeInstanceOf(ControllerError);
      expect((refused as ControllerError).code).toBe("LEADERSHIP_LOST");
      expect((await cms.get("gated", { namespace: ns })).metadata?.finalizers).toBeUndefined();
    } finally {
      await manager.stop();
    }
  });
});
