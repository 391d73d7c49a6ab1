import { HandlerError, type Informer, isDeletedFinalStateUnknown } from "@kubesdk/informer";
import type { KubernetesObject } from "@kubesdk/models";
import type { RunningServer } from "@kubesdk/server";
import { describe, expect, it } from "vitest";
import { targetKind, uniqueName } from "../support/target.js";
import {
  createConfigMap,
  createNamespace,
  nameOf,
  patchConfigMap,
  Recorder,
  rvOf,
  until,
} from "./support/harness.js";
import { deleteConfigMapInStore, seedConfigMaps, updateConfigMapInStore } from "./support/reference.js";
import { type SuiteInformerOptions, useInformerSuite } from "./support/suite.js";

const s = useInformerSuite({ watch: { bookmarkIntervalMs: 200 } });

const newInformer = (ns: string, extra: SuiteInformerOptions<KubernetesObject> = {}) =>
  s.informer({ namespace: ns, ...extra });
const synced = (informer: Informer) => s.synced(informer);
const namespaceWith = (prefix: string, count: number) => s.namespace(prefix, count);

describe("handlers", () => {
  it("S29: several handlers each receive every event in order; a throwing handler is reported and stops nothing", async () => {
    const ns = await namespaceWith("s29", 2);
    const informer = newInformer(ns);
    const first = new Recorder();
    const last = new Recorder();
    const thrower = new Recorder();
    let calls = 0;
    const throwing = {
      add: (o: KubernetesObject, info: { isInInitialList: boolean }) => {
        thrower.handlers.add(o, info);
        if (++calls % 3 === 0) throw new Error("boom");
      },
      update: (a: KubernetesObject, b: KubernetesObject) => {
        thrower.handlers.update(a, b);
        if (++calls % 3 === 0) throw new Error("boom");
      },
    };
    informer.addEventHandler(first.handlers, { name: "first" });
    informer.addEventHandler(throwing, { name: "thrower" });
    informer.addEventHandler(last.handlers, { name: "last" });
    const errors: { handler: string | undefined; err: Error }[] = [];
    informer.on("error", (err, ctx) => errors.push({ handler: ctx.handler, err }));
    await synced(informer);
    for (let i = 0; i < 5; i++) await createConfigMap(s.t, ns, `new-${i}`);
    for (let i = 0; i < 5; i++) await patchConfigMap(s.t, ns, `new-${i}`, { data: { v: "1" } });
    await last.until((l) => l.length === 12, "12 notifications");
    await first.until((l) => l.length === 12, "12 notifications");
    await thrower.until((l) => l.length === 12, "12 notifications");

    expect(first.log).toEqual(last.log);
    expect(thrower.log).toEqual(last.log);
    expect(last.log.map((r) => `${r.type}:${r.name}`)).toEqual([
      "add:cm-0",
      "add:cm-1",
      ...Array.from({ length: 5 }, (_, i) => `add:new-${i}`),
      ...Array.from({ length: 5 }, (_, i) => `update:new-${i}`),
    ]);
    expect(errors).toHaveLength(4);
    expect(errors.every((e) => e.handler === "thrower" && e.err instanceof HandlerError)).toBe(true);
    expect(errors.map((e) => (e.err as HandlerError).code)).toEqual(Array(4).fill("HANDLER_FAILED"));
    expect(informer.reflectorState).toBe("Watching");
  });

  it("S30: a handler added after sync receives the current store as adds (isInInitialList true) before live events", async () => {
    const ns = await namespaceWith("s30", 3);
    const informer = await synced(newInformer(ns));
    const late = new Recorder();
    // Writes keep coming while the handler is added; each object must reach it exactly once.
    const writes = (async () => {
      for (let i = 0; i < 10; i++) await createConfigMap(s.t, ns, `during-${i}`);
    })();
    await until(informer, "event", (e) => e.type === "ADDED");
    const registration = informer.addEventHandler(late.handlers);
    await writes;
    await late.until((l) => l.length === 13, "13 adds");

    const flags = late.log.map((r) => r.type === "add" && r.initial);
    const firstLive = flags.indexOf(false);
    expect(firstLive).toBeGreaterThanOrEqual(4);
    expect(flags.slice(0, firstLive).every(Boolean)).toBe(true);
    expect(flags.slice(firstLive).every((f) => !f)).toBe(true);
    expect(new Set(late.log.map((r) => r.name)).size).toBe(13);
    expect(registration.hasSynced).toBe(true);
  });

  it("S31: resync delivers update(obj, obj) for every cached object at each handler's own period; 0 means never", async () => {
    const ns = await namespaceWith("s31", 3);
    const informer = newInformer(ns);
    const rounds = { fast: 0, slow: 0, never: 0 };
    const counts = { fast: 0, slow: 0, never: 0 };
    const sameObjects: boolean[] = [];
    let slowTwice = () => {};
    const slowResyncedTwice = new Promise<void>((resolve) => {
      slowTwice = resolve;
    });
    const resyncHandler = (which: keyof typeof counts) => ({
      update: (a: KubernetesObject, b: KubernetesObject) => {
        if (a !== b) return;
        sameObjects.push(informer.store.get(`${ns}/${nameOf(b)}`) === b);
        if (++counts[which] % 3 === 0) rounds[which]++;
        if (which === "slow" && rounds.slow === 2) slowTwice();
      },
    });
    informer.addEventHandler(resyncHandler("fast"), { resyncPeriodMs: 50 });
    informer.addEventHandler(resyncHandler("slow"), { resyncPeriodMs: 400 });
    informer.addEventHandler(resyncHandler("never"), { resyncPeriodMs: 0 });
    await synced(informer);
    await slowResyncedTwice;

    expect(rounds.fast).toBeGreaterThan(rounds.slow);
    expect(counts.never).toBe(0);
    expect(counts.fast % 3).toBe(0);
    expect(sameObjects.every(Boolean)).toBe(true);
    expect(informer.stats().resyncs).toBeGreaterThanOrEqual(rounds.fast + rounds.slow);
  });
});

// Reason for reference-only: a burst of hundreds of writes within one turn needs direct store access.
describe.runIf(targetKind === "reference")("slow handlers", () => {
  it("S32: a slow handler blocks neither the stream nor other handlers; far behind, its backlog is dropped (reported) and it catches up from the store", async () => {
    const server = s.t.reference as RunningServer;
    const ns = uniqueName("s32");
    await createNamespace(s.t, ns);
    const names = Array.from({ length: 10 }, (_, i) => `cm-${i}`);
    seedConfigMaps(server, ns, names);
    const informer = newInformer(ns, { maxPendingNotifications: 20 });
    const fast = new Recorder();
    informer.addEventHandler(fast.handlers, { name: "fast" });
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The slow handler's own picture of the world, built only from what it is told.
    const view = new Map<string, string>();
    const slowLog: string[] = [];
    const mismatches: string[] = [];
    let caughtUp = () => {};
    const slowCaughtUp = new Promise<void>((resolve) => {
      caughtUp = resolve;
    });
    // Called after each of its notifications: done once its view matches the store.
    const checkCaughtUp = () => {
      if (view.size === informer.store.size && view.has("cm-new") && !view.has("cm-0")) caughtUp();
    };
    informer.addEventHandler(
      {
        add: async (o) => {
          await gate;
          slowLog.push(`add ${nameOf(o)}`);
          view.set(nameOf(o), rvOf(o));
          checkCaughtUp();
        },
        update: async (a, b) => {
          await gate;
          slowLog.push(`update ${nameOf(b)}`);
          // A handler's throw would only be reported, so mismatches are collected instead.
          if (view.get(nameOf(a)) !== rvOf(a)) mismatches.push(`update of ${nameOf(a)} from an unseen state`);
          view.set(nameOf(b), rvOf(b));
          checkCaughtUp();
        },
        delete: async (o) => {
          await gate;
          const obj = isDeletedFinalStateUnknown(o) ? o.obj : (o as KubernetesObject);
          slowLog.push(`delete ${nameOf(obj)}`);
          view.delete(nameOf(obj));
          checkCaughtUp();
        },
      },
      { name: "slow" },
    );
    const overflows: { handler: string; dropped: number }[] = [];
    informer.on("handlerOverflow", (o) => overflows.push(o));
    const replaced = until(informer, "replace");
    informer.start();
    await replaced;
    await fast.until((l) => l.length === 10, "fast initial adds");

    for (let round = 1; round <= 20; round++)
      for (const n of names) updateConfigMapInStore(server, ns, n, { v: String(round) });
    deleteConfigMapInStore(server, ns, "cm-0");
    seedConfigMaps(server, ns, ["cm-new"]);
    await fast.until((l) => l.length === 10 + 200 + 2, "fast handler saw every change");

    // The slow handler has not run once, yet the stream and the fast handler went on.
    expect(slowLog).toEqual([]);
    expect(informer.hasSynced).toBe(false);
    expect(overflows.length).toBeGreaterThanOrEqual(1);
    expect(overflows.every((o) => o.handler === "slow" && o.dropped > 20)).toBe(true);

    release();
    await until(informer, "synced");
    await slowCaughtUp;

    expect(new Map(informer.store.list().map((o) => [nameOf(o), rvOf(o)]))).toEqual(view);
    expect(mismatches).toEqual([]);
    expect(slowLog.length).toBeLessThan(fast.log.length);
    expect(informer.stats().handlerOverflows).toBe(overflows.length);
  });
});
