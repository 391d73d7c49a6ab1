/**
 * Lifecycle, failures, sharing and observability (scenarios 33–37). S33 and S34 also run against a
 * real kube-apiserver (without their reference-only checks); S35–S37 use the reference server's fault
 * controls and request log.
 */ import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import {
  type Informer,
  InformerFactory,
  type InformerOptions,
  InformerStoppedError,
  SyncAbortedError,
  SyncTimeoutError,
} from "@kubesdk/informer";
import type { RunningServer } from "@kubesdk/server";
import { describe, expect, it } from "vitest";
import { targetKind } from "../support/target.js";
import {
  configMapsPath,
  createConfigMap,
  FAST_BACKOFF,
  patchConfigMap,
  Recorder,
  rvOf,
  until,
  untilState,
} from "./support/harness.js";
import { useInformerSuite } from "./support/suite.js";

const s = useInformerSuite({ watch: { bookmarkIntervalMs: 200 } });

const newInformer = (ns: string, extra: InformerOptions = {}) => s.informer({ namespace: ns, ...extra });
const synced = (informer: Informer) => s.synced(informer);
const namespaceWith = (prefix: string, count: number) => s.namespace(prefix, count);

describe("lifecycle", () => {
  it("S33: stop() and an aborted signal close the stream, cancel timers, reject waits and refuse new handlers; the process can exit", async () => {
    const ns = await namespaceWith("s33", 1);
    const informer = newInformer(ns, { resyncPeriodMs: 10 });
    informer.addEventHandler({});
    await synced(informer);
    // An event proves the watch is open on the server.
    const added = until(informer, "event", (e) => e.type === "ADDED");
    await createConfigMap(s.t, ns, "watched");
    await added;
    const stoppedEvent = until(informer, "stopped");
    let serverSideClosed: Promise<void> | undefined;
    if (s.t.kind === "reference") {
      const open = [...(s.t.reference as RunningServer).watches.streams].filter((w) => w.namespace === ns);
      expect(open).toHaveLength(1);
      const response = open[0]?.stream.response;
      serverSideClosed = new Promise((resolve) => response?.once("close", () => resolve()));
    }
    await informer.stop();
    await stoppedEvent;
    await serverSideClosed;
    expect(informer.reflectorState).toBe("Stopped");
    expect(() => informer.addEventHandler({})).toThrow(InformerStoppedError);
    expect(() => informer.start()).toThrow(InformerStoppedError);
    await expect(informer.waitForSync()).resolves.toBeUndefined();

    // A pending wait is rejected; an aborted start signal stops like stop().
    const controller = new AbortController();
    const stuck = newInformer(ns, { labelSelector: "never" });
    // The expectation is attached before the rejection can happen, so it is never unhandled.
    const waiting = expect(stuck.waitForSync()).rejects.toBeInstanceOf(InformerStoppedError);
    stuck.start(controller.signal);
    const stopped = until(stuck, "stopped");
    controller.abort();
    await stopped;
    await waiting;
    expect(() => stuck.addEventHandler({})).toThrow(InformerStoppedError);

    // In a separate process: after stop() nothing of the informer keeps Node alive.
    await createConfigMap(s.t, ns, "before-child");
    const child = spawn(
      process.execPath,
      [
        "--conditions=source",
        "--import",
        "tsx",
        fileURLToPath(new URL("./support/informer-child.ts", import.meta.url)),
        s.t.kubeconfigPath,
        ns,
      ],
      { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NODE_TLS_REJECT_UNAUTHORIZED: undefined } },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      if (out.includes("synced") && !out.includes("written")) {
        out += "written\n";
        void createConfigMap(s.t, ns, "for-child");
      }
    });
    child.stderr.on("data", (c: Buffer) => {
      err += c.toString();
    });
    const exit = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`the child did not exit by itself after stop(): ${out} ${err}`));
      }, 25_000);
      child.on("exit", (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    expect({ exit, err }).toEqual({ exit: 0, err: "" });
    expect(out).toContain("stopped Stopped");
  }, 40_000);

  it("S34: waitForSync resolves after sync and rejects on stop, on the caller's timeout and on abort", async () => {
    const ns = await namespaceWith("s34", 2);
    const informer = newInformer(ns);
    const early = informer.waitForSync();
    informer.start();
    await expect(early).resolves.toBeUndefined();
    expect(informer.hasSynced).toBe(true);

    if (s.t.kind !== "reference") return;
    // An informer that cannot sync: every list fails.
    const server = s.t.reference as RunningServer;
    const ns2 = await namespaceWith("s34-fail", 1);
    server.faults.failNext(1_000, { status: 500 }, { namespace: ns2, verb: "list" });
    const failing = newInformer(ns2);
    failing.start();
    await expect(failing.waitForSync({ timeoutMs: 200 })).rejects.toBeInstanceOf(SyncTimeoutError);
    const controller = new AbortController();
    const aborted = expect(failing.waitForSync({ signal: controller.signal })).rejects.toBeInstanceOf(
      SyncAbortedError,
    );
    controller.abort(new Error("caller gave up"));
    await aborted;
    const onStop = expect(failing.waitForSync()).rejects.toBeInstanceOf(InformerStoppedError);
    await failing.stop();
    await onStop;
    server.faults.reset();
  });
});

// Reason for reference-only: failures and request counts come from the reference server's fault
// controls and request s.log.
describe.runIf(targetKind === "reference")("failures, sharing and observability", () => {
  it("S35: failed lists (500, 503, reset) are reported and retried with doubling, capped, jittered backoff until they succeed", async () => {
    const server = s.t.reference as RunningServer;
    const ns = await namespaceWith("s35", 2);
    server.faults.failNext(3, { status: 500 }, { namespace: ns, verb: "list" });
    server.faults.failNext(2, { status: 503 }, { namespace: ns, verb: "list" });
    server.faults.failNext(1, { reset: true }, { namespace: ns, verb: "list" });
    const jitter = [0, 0.5, 0, 0.999, 0, 0];
    let draws = 0;
    const informer = newInformer(ns, {
      backoff: { initialMs: 20, maxMs: 80 },
      // Draws for jitter only (the list comes first; no watch timeout is drawn before it syncs).
      random: () => jitter[draws++] ?? 0,
    });
    const errors: { code: unknown; during: string; willRetry: boolean }[] = [];
    informer.on("error", (e, ctx) =>
      errors.push({ code: codeOf(e), during: ctx.during, willRetry: ctx.willRetry }),
    );
    const delays: number[] = [];
    informer.on("backoff", (b) => delays.push(b.delayMs));
    await synced(informer);

    expect(errors.map((e) => e.code)).toEqual([
      500,
      500,
      500,
      503,
      503,
      expect.stringMatching(/^(SOCKET_CLOSED|CONNECTION_RESET)$/),
    ]);
    expect(errors.every((e) => e.during === "list" && e.willRetry)).toBe(true);
    // 20, 40, 80, then capped at 80 — each times (1 + jitter).
    const expected = [20, 40 * 1.5, 80, 80 * 1.999, 80, 80];
    expect(delays).toHaveLength(expected.length);
    delays.forEach((d, i) => {
      expect(d).toBeCloseTo(expected[i] as number, 6);
    });
    expect(s.log.lists(configMapsPath(ns)).map((l) => l.status)).toEqual([500, 500, 500, 503, 503, 200]);
    expect(informer.store.size).toBe(2);
  });

  it("S36: two informers requested for the same resource and selector from one factory share one list and one watch", async () => {
    const ns = await namespaceWith("s36", 2);
    const kube = s.kube();
    const factory = new InformerFactory(kube, { backoff: FAST_BACKOFF });
    try {
      const a = factory.informer("v1", "ConfigMap", { namespace: ns, labelSelector: "" });
      const b = factory.informerFor(kube.resource("v1", "ConfigMap"), { namespace: ns });
      // A selector written as a record is the same selector as its text.
      const other = factory.informer("v1", "ConfigMap", { namespace: ns, labelSelector: { x: "y" } });
      expect(factory.informer("v1", "ConfigMap", { namespace: ns, labelSelector: "x=y" })).toBe(other);
      expect(b).toBe(a);
      expect(other).not.toBe(a);
      expect(factory.size).toBe(2);
      const ra = new Recorder();
      const rb = new Recorder();
      a.addEventHandler(ra.handlers);
      b.addEventHandler(rb.handlers);
      factory.start();
      await factory.waitForSync({ timeoutMs: 10_000 });
      await createConfigMap(s.t, ns, "shared");
      await ra.until((l) => l.length === 3, "3 notifications");
      await rb.until((l) => l.length === 3, "3 notifications");
      expect(ra.log).toEqual(rb.log);
    } finally {
      await factory.stop();
    }
    const reads = s.log.reads(configMapsPath(ns));
    const unfiltered = reads.filter((r) => !r.query.has("labelSelector"));
    expect(unfiltered.filter((r) => r.query.get("watch") !== "true")).toHaveLength(1);
    expect(
      reads.filter((r) => r.query.get("labelSelector") === "x=y" && r.query.get("watch") !== "true"),
    ).toHaveLength(1);
  });

  it("S37: observability events report lists and pages, watch starts and ends with reasons, relists with reasons, events by type, backoff delays and store size", async () => {
    const server = s.t.reference as RunningServer;
    const ns = await namespaceWith("s37", 3);
    const informer = newInformer(ns, { pageSize: 2 });
    const seen: Record<string, unknown[]> = {};
    for (const name of [
      "listStart",
      "listPage",
      "listDone",
      "watchStart",
      "watchEnd",
      "relist",
      "event",
      "backoff",
      "replace",
    ] as const)
      informer.on(name, (info: unknown) => {
        const list = seen[name] ?? [];
        list.push(info);
        seen[name] = list;
      });
    await synced(informer);
    const a = await createConfigMap(s.t, ns, "a");
    await patchConfigMap(s.t, ns, "a", { data: { v: "1" } });
    await s.t.call("DELETE", `${configMapsPath(ns)}/a`);
    await untilState(informer, () => informer.stats().events.DELETED === 1, "delete seen");
    await until(informer, "event", (e) => e.type === "BOOKMARK");
    // A forced relist: the watch expires.
    server.faults.pauseDelivery();
    await createConfigMap(s.t, ns, "b");
    server.faults.restart();
    server.faults.resumeDelivery();
    await until(informer, "replace", (r) => !r.initial);

    expect(seen.listStart?.[0]).toEqual({
      reason: "initial",
      resourceVersion: undefined,
      limit: 2,
      streaming: false,
    });
    expect(seen.listPage?.slice(0, 2)).toEqual([
      { page: 1, items: 2, total: 2, more: true, remainingItemCount: 1, streaming: false },
      { page: 2, items: 1, total: 3, more: false, streaming: false },
    ]);
    expect(seen.listDone?.[0]).toMatchObject({ items: 3, pages: 2, streaming: false });
    expect(seen.watchStart?.[0]).toMatchObject({ resourceVersion: expect.any(String), streaming: false });
    expect(seen.watchEnd?.map((e) => (e as { reason: string }).reason)).toContain("expired");
    expect(seen.relist?.at(-1)).toMatchObject({ reason: "expired" });
    const types = new Set(seen.event?.map((e) => (e as { type: string }).type));
    expect(types).toEqual(new Set(["ADDED", "MODIFIED", "DELETED", "BOOKMARK"]));
    expect(seen.event?.find((e) => (e as { type: string }).type === "ADDED")).toMatchObject({
      resourceVersion: rvOf(a),
      storeSize: 4,
    });
    expect(seen.replace?.at(-1)).toMatchObject({ initial: false, added: 1, storeSize: 4 });
    const stats = informer.stats();
    expect(stats).toMatchObject({
      lists: 2,
      relists: 1,
      storeSize: 4,
      events: { ADDED: 1, MODIFIED: 1, DELETED: 1 },
    });
    expect(stats.listPages).toBe(3);
    expect(stats.watches).toBe(seen.watchStart?.length);
    expect(stats.backoffs).toBe(seen.backoff?.length ?? 0);
  });
});

/** The HTTP code of an ApiError, else the error's string code. */
function codeOf(e: unknown): unknown {
  const err = e as { statusCode?: unknown; code?: unknown };
  return err.statusCode ?? err.code;
}
