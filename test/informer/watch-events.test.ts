/**
 * Watching (scenarios 10–13 and 21). S12, S13 and S21 also run against a real kube-apiserver; S10 and
 * S11 read the reference server's request log and use its short bookmark period.
 */
import type { ListerWatcher } from "@kubesdk/informer";
import type { KubernetesObject } from "@kubesdk/models";
import type { RunningServer } from "@kubesdk/server";
import { describe, expect, it } from "vitest";
import { clientListerWatcher } from "../../packages/informer/src/list-watcher.js";
import { targetKind } from "../support/target.js";
import {
  configMapsPath,
  createConfigMap,
  deleteConfigMap,
  patchConfigMap,
  Recorder,
  rvOf,
  serverState,
  storeState,
  until,
  untilState,
} from "./support/harness.js";
import { mapWatchStream } from "./support/map-watch.js";
import { type SuiteInformerOptions, useInformerSuite } from "./support/suite.js";

const s = useInformerSuite({ watch: { bookmarkIntervalMs: 150 } });

async function syncedInformer(
  ns: string,
  extra: SuiteInformerOptions<KubernetesObject> = {},
  recorder?: Recorder,
) {
  const informer = s.informer({ namespace: ns, ...extra });
  if (recorder) informer.addEventHandler(recorder.handlers);
  return s.synced(informer);
}

const freshNamespace = (prefix: string) => s.namespace(prefix);

// Reason for reference-only: the watch parameters are read from the reference server's request log,
// and dropping streams on demand needs its fault controls.
describe.runIf(targetKind === "reference")("watch requests", () => {
  it("S10: every watch sends allowWatchBookmarks=true, the last resourceVersion and a timeoutSeconds inside the configured window", async () => {
    const server = s.t.reference as RunningServer;
    const ns = await freshNamespace("s10");
    const informer = await syncedInformer(ns, { watchTimeoutSeconds: { min: 40, max: 44 } });
    const started: { rv: string | undefined; timeout: number }[] = [];
    informer.on("watchStart", (w) => started.push({ rv: w.resourceVersion, timeout: w.timeoutSeconds }));
    const firstRv = informer.lastSyncResourceVersion;
    for (let i = 0; i < 5; i++) {
      // The write reaching the store proves the current watch is open on the server.
      const created = await createConfigMap(s.t, ns, `cm-${i}`);
      await untilState(informer, () => informer.store.has(`${ns}/cm-${i}`), `cm-${i} cached`);
      expect(informer.lastSyncResourceVersion).toBe(rvOf(created));
      const next = until(informer, "watchStart");
      server.faults.dropWatches({ namespace: ns }, "end");
      await next;
    }
    await s.log.waitFor(() => s.log.watches(configMapsPath(ns)).length >= 5);

    const watches = s.log.watches(configMapsPath(ns)).slice(0, 5);
    expect(watches).toHaveLength(5);
    for (const w of watches) {
      expect(w.query.get("allowWatchBookmarks")).toBe("true");
      const timeout = Number(w.query.get("timeoutSeconds"));
      expect(timeout).toBeGreaterThanOrEqual(40);
      expect(timeout).toBeLessThanOrEqual(44);
    }
    expect(watches[0]?.query.get("resourceVersion")).toBe(firstRv);
    // Each later watch resumes at the resourceVersion the previous one had reached.
    expect(watches.slice(1).map((w) => w.query.get("resourceVersion"))).toEqual(
      started.slice(0, 4).map((s) => s.rv),
    );
    expect(started.slice(0, 4).map((s) => String(s.timeout))).toEqual(
      watches.slice(1).map((w) => w.query.get("timeoutSeconds")),
    );
    expect(s.log.lists(configMapsPath(ns))).toHaveLength(1);
  });

  it("S11: bookmarks advance the resourceVersion and never reach handlers", async () => {
    const ns = await freshNamespace("s11");
    const other = await freshNamespace("s11-other");
    await createConfigMap(s.t, ns, "mine");
    const recorder = new Recorder();
    const informer = await syncedInformer(ns, {}, recorder);
    // Writes elsewhere move the server's revision; only bookmarks can tell this informer about it.
    let latest = "";
    for (let i = 0; i < 3; i++) latest = rvOf(await createConfigMap(s.t, other, `elsewhere-${i}`));
    const [bookmark] = await until(
      informer,
      "event",
      (e) => e.type === "BOOKMARK" && Number(e.resourceVersion) >= Number(latest),
    );

    expect(informer.lastSyncResourceVersion).toBe(bookmark.resourceVersion);
    expect(recorder.log).toEqual([{ type: "add", name: "mine", rv: expect.any(String), initial: true }]);
    expect(informer.stats().events.BOOKMARK).toBeGreaterThan(0);
  });
});

describe("watch events", () => {
  it("S12: ADDED, MODIFIED and DELETED update the store and reach handlers as add, update(old, new) and delete", async () => {
    const ns = await freshNamespace("s12");
    const recorder = new Recorder();
    const informer = await syncedInformer(ns, {}, recorder);
    const created = await createConfigMap(s.t, ns, "a", { v: "1" });
    await recorder.until((l) => l.length === 1, "add");
    expect(informer.store.get(`${ns}/a`)).toMatchObject({ data: { v: "1" } });
    const patched = await patchConfigMap(s.t, ns, "a", { data: { v: "2" } });
    await recorder.until((l) => l.length === 2, "update");
    expect(informer.store.get(`${ns}/a`)).toMatchObject({ data: { v: "2" } });
    await deleteConfigMap(s.t, ns, "a");
    await recorder.until((l) => l.length === 3, "delete");

    expect(recorder.log).toEqual([
      { type: "add", name: "a", rv: rvOf(created), initial: false },
      { type: "update", name: "a", oldRv: rvOf(created), rv: rvOf(patched) },
      { type: "delete", name: "a", rv: expect.any(String), tombstone: false },
    ]);
    expect(informer.store.has(`${ns}/a`)).toBe(false);
    expect(informer.store.size).toBe(0);
  });

  it("S13: a stream the server ends normally is re-opened at once at the last resourceVersion, without a list", async () => {
    const ns = await freshNamespace("s13");
    const informer = await syncedInformer(ns, { watchTimeoutSeconds: { min: 1, max: 1 } });
    const created = await createConfigMap(s.t, ns, "a");
    await untilState(informer, () => informer.store.has(`${ns}/a`), "a cached");
    const [end] = await until(informer, "watchEnd");
    const [next] = await until(informer, "watchStart");

    expect(end.reason).toBe("closed");
    expect(end.error).toBeUndefined();
    // The bookmark sent before the timeout may have moved the resourceVersion past the write.
    expect(Number(next.resourceVersion)).toBeGreaterThanOrEqual(Number(rvOf(created)));
    expect(next.resourceVersion).toBe(informer.lastSyncResourceVersion);
    const stats = informer.stats();
    expect(stats.lists).toBe(1);
    expect(stats.relists).toBe(0);
    expect(stats.backoffs).toBe(0);
    if (s.t.kind === "reference") expect(s.log.lists(configMapsPath(ns))).toHaveLength(1);
  });

  it("S21: objects of the wrong kind in the stream are reported and skipped", async () => {
    const ns = await freshNamespace("s21");
    await createConfigMap(s.t, ns, "alien-listed");
    await createConfigMap(s.t, ns, "native-listed");
    // The real server's objects, with those named alien-* relabelled as another kind on the way in
    // (what a misbehaving aggregated API or proxy would send).
    const inner = clientListerWatcher<KubernetesObject>(s.kube().resource("v1", "ConfigMap"), {
      namespace: ns,
    });
    const relabel = (o: KubernetesObject): KubernetesObject =>
      o.metadata?.name?.startsWith("alien-") ? { ...o, kind: "Secret" } : o;
    const lw: ListerWatcher<KubernetesObject> = {
      list: async (q, o) => {
        const page = await inner.list(q, o);
        return { ...page, items: page.items.map(relabel) };
      },
      watch: (q, o) =>
        mapWatchStream(inner.watch(q, o), (e) =>
          e.type === "BOOKMARK" ? e : { ...e, object: relabel(e.object) },
        ),
    };
    const recorder = new Recorder();
    const errors: { code: unknown; during: string }[] = [];
    const informer = s.informer({ namespace: ns, listerWatcher: lw });
    informer.on("error", (err, ctx) =>
      errors.push({ code: (err as { code?: unknown }).code, during: ctx.during }),
    );
    informer.addEventHandler(recorder.handlers);
    const synced = until(informer, "synced");
    informer.start();
    await synced;
    await createConfigMap(s.t, ns, "alien-live");
    await createConfigMap(s.t, ns, "native-live");
    await recorder.until((l) => l.some((r) => r.name === "native-live"), "native-live");

    expect(errors).toEqual([
      { code: "OBJECT_WRONG_KIND", during: "object" },
      { code: "OBJECT_WRONG_KIND", during: "object" },
    ]);
    expect(recorder.log.map((r) => r.name)).toEqual(["native-listed", "native-live"]);
    expect([...storeState(informer).keys()].sort()).toEqual(["native-listed", "native-live"]);
    expect([...(await serverState(s.t, configMapsPath(ns))).keys()]).toHaveLength(4);
    expect(informer.stats().watches).toBe(1);
  });
});
