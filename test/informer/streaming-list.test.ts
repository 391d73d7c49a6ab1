/**
 * Initial sync by streaming list (scenarios 6–8). S6 and S7 also run against a real kube-apiserver
 * (streaming lists are on by default since 1.34); S8 needs the reference server's switches.
 */
import type { ListerWatcher, WatchQuery } from "@kubesdk/informer";
import type { KubernetesObject } from "@kubesdk/models";
import type { RunningServer } from "@kubesdk/server";
import type { HttpTransport, WatchEvent, WatchStream } from "@kubesdk/transport";
import { describe, expect, it } from "vitest";
import { clientListerWatcher } from "../../packages/informer/src/list-watcher.js";
import { startTarget, targetKind, uniqueName } from "../support/target.js";
import {
  configMapsPath,
  connect,
  createConfigMap,
  createNamespace,
  Recorder,
  RequestLog,
  serverState,
  storeState,
  until,
} from "./support/harness.js";
import { endNextWatches } from "./support/reference.js";
import { useInformerSuite } from "./support/suite.js";

const s = useInformerSuite();

function streamingInformer(tr: HttpTransport, ns: string, listerWatcher?: ListerWatcher<KubernetesObject>) {
  return s.informer(
    { namespace: ns, initialList: "stream", ...(listerWatcher ? { listerWatcher } : {}) },
    tr,
  );
}

/** Streams the real server's events, inserting `extra` after the first ADDED of a streaming list. */
class BookmarkInjectingListerWatcher implements ListerWatcher<KubernetesObject> {
  constructor(
    private readonly inner: ListerWatcher<KubernetesObject>,
    private readonly extra: WatchEvent<KubernetesObject>,
  ) {}

  list(...args: Parameters<ListerWatcher<KubernetesObject>["list"]>) {
    return this.inner.list(...args);
  }

  watch(query: WatchQuery, options: Parameters<ListerWatcher<KubernetesObject>["watch"]>[1]) {
    const source = this.inner.watch(query, options);
    if (query.sendInitialEvents !== true) return source;
    const extra = this.extra;
    let state: "before" | "due" | "done" = "before";
    const out: WatchStream<KubernetesObject> = {
      async next() {
        if (state === "due") {
          state = "done";
          return { done: false, value: extra };
        }
        const r = await source.next();
        if (!r.done && state === "before" && r.value.type === "ADDED") state = "due";
        return r;
      },
      return: () => source.return?.() ?? Promise.resolve({ done: true, value: undefined }),
      throw: (err) => source.throw?.(err) ?? Promise.reject(err),
      close: () => source.close(),
      [Symbol.asyncIterator]: () => out,
    };
    return out;
  }
}

describe("initial sync by streaming list", () => {
  it("S6: sends the streaming-list parameters, buffers ADDED until the end bookmark, replaces the store in one step and keeps the stream", async () => {
    const ns = await s.namespace("s6", 5);
    const informer = streamingInformer(s.transport, ns);
    const sizesAtAdd: number[] = [];
    const recorder = new Recorder();
    informer.addEventHandler({
      add: (obj, info) => {
        sizesAtAdd.push(informer.store.size);
        recorder.handlers.add(obj, info);
      },
    });
    const liveEventsBeforeReplace: string[] = [];
    informer.on("event", (e) => {
      if (informer.lastSyncResourceVersion === "") liveEventsBeforeReplace.push(e.type);
    });
    const replaces: number[] = [];
    informer.on("replace", (r) => replaces.push(r.added));
    const synced = until(informer, "synced");
    informer.start();
    await synced;

    expect(replaces).toEqual([5]);
    expect(liveEventsBeforeReplace).toEqual([]);
    expect(sizesAtAdd).toEqual([5, 5, 5, 5, 5]);
    expect(recorder.of("add").every((r) => r.type === "add" && r.initial)).toBe(true);

    await createConfigMap(s.t, ns, "live");
    await recorder.until((l) => l.some((r) => r.name === "live"), "add of live");
    expect(informer.stats().watches).toBe(1);
    expect(informer.stats().lists).toBe(1);
    expect(storeState(informer)).toEqual(await serverState(s.t, configMapsPath(ns)));

    if (s.t.kind === "reference") {
      const server = s.t.reference as RunningServer;
      server.faults.dropWatches({ namespace: ns }, "end");
      const watch = await s.log.waitFor(
        (e) => e.path === configMapsPath(ns) && e.query.get("watch") === "true",
      );
      expect(Object.fromEntries(watch.query)).toMatchObject({
        sendInitialEvents: "true",
        resourceVersionMatch: "NotOlderThan",
        allowWatchBookmarks: "true",
      });
      expect(watch.query.has("resourceVersion")).toBe(false);
      expect(s.log.lists(configMapsPath(ns))).toHaveLength(0);
    }
  });

  it('S7: a bookmark annotated "false" does not end the initial phase', async () => {
    const ns = await s.namespace("s7", 4);
    const falseBookmark: WatchEvent<KubernetesObject> = {
      type: "BOOKMARK",
      object: {
        kind: "ConfigMap",
        apiVersion: "v1",
        metadata: { resourceVersion: "1", annotations: { "k8s.io/initial-events-end": "false" } },
      },
    };
    const lw = new BookmarkInjectingListerWatcher(
      clientListerWatcher<KubernetesObject>(s.kube().resource("v1", "ConfigMap"), { namespace: ns }),
      falseBookmark,
    );
    const informer = streamingInformer(s.transport, ns, lw);
    const replaces: number[] = [];
    informer.on("replace", (r) => replaces.push(r.added));
    const applied: string[] = [];
    informer.on("event", (e) => applied.push(e.type));
    const synced = until(informer, "synced");
    informer.start();
    await synced;

    // Had the "false" bookmark ended the phase, the store would have been replaced with one object
    // and the other three applied as live ADDED events.
    expect(replaces).toEqual([4]);
    expect(applied).toEqual([]);
    expect(informer.store.size).toBe(4);
  });
});

// Reason for reference-only: turning streaming lists off and ending a stream before its first
// event need the reference server's settings and watch hooks.
describe.runIf(targetKind === "reference")("streaming-list fallbacks", () => {
  it("S8: a server that rejects streaming lists (422) gets list+watch; a stream ending before the end bookmark gets a fresh streaming request", async () => {
    const noWatchListLog = new RequestLog();
    // Controllers off as in the suite's target: the namespace holds only the test's ConfigMaps.
    const old = await startTarget({
      log: noWatchListLog.sink,
      controllers: false,
      settings: { watchList: false },
    });
    const oldTransport = await connect(old);
    try {
      const ns = uniqueName("s8a");
      await createNamespace(old, ns);
      for (let i = 0; i < 3; i++) await createConfigMap(old, ns, `cm-${i}`);
      const informer = streamingInformer(oldTransport, ns);
      const ends: string[] = [];
      informer.on("watchEnd", (e) => ends.push(e.reason));
      const relists: string[] = [];
      informer.on("relist", (r) => relists.push(r.reason));
      const synced = until(informer, "synced");
      informer.start();
      await synced;
      await informer.stop();

      const reads = noWatchListLog.reads(configMapsPath(ns));
      expect(reads[0]).toMatchObject({ status: 422 });
      expect(reads[0]?.query.get("sendInitialEvents")).toBe("true");
      expect(reads[1]).toMatchObject({ status: 200 });
      expect(reads[1]?.query.get("limit")).toBe("500");
      expect(ends[0]).toBe("unsupported");
      expect(relists).toEqual(["streaming-list-unsupported"]);
      expect(informer.store.size).toBe(3);
    } finally {
      await oldTransport.close();
      await old.close();
    }

    // A stream that ends before its end bookmark.
    const server = s.t.reference as RunningServer;
    const ns = await s.namespace("s8b", 3);
    const informer = streamingInformer(s.transport, ns);
    const starts: { streaming: boolean }[] = [];
    informer.on("watchStart", (w) => starts.push({ streaming: w.streaming }));
    endNextWatches(server, 1);
    const synced = until(informer, "synced");
    informer.start();
    await synced;

    expect(starts).toEqual([{ streaming: true }, { streaming: true }]);
    const reads = s.log.reads(configMapsPath(ns));
    expect(reads).toHaveLength(1);
    expect(reads[0]?.query.get("sendInitialEvents")).toBe("true");
    expect(s.log.lists(configMapsPath(ns))).toHaveLength(0);
    expect(informer.store.size).toBe(3);
  });
});
