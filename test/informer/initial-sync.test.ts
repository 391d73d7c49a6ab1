import type { KubernetesObject } from "@kubesdk/models";
import type { RunningServer } from "@kubesdk/server";
import { describe, expect, it } from "vitest";
import { targetKind } from "../support/target.js";
import {
  configMapsPath,
  createConfigMap,
  Recorder,
  serverState,
  storeState,
  until,
} from "./support/harness.js";
import { seedConfigMaps } from "./support/reference.js";
import { useInformerSuite } from "./support/suite.js";

const s = useInformerSuite();

// Pages keep their size (pageBytes 0) unless a test is about sizing them (S40).
const configMapInformer = (ns: string, pageSize: number, pageBytes = 0) =>
  s.informer({ namespace: ns, pageSize, pageBytes });
const namespaceWith = (prefix: string, count: number) => s.namespace(prefix, count);

describe("initial sync by list", () => {
  it("S1: lists with limit, follows continue, holds exactly the server's objects, and syncs only after every initial add is delivered", async () => {
    const ns = await namespaceWith("s1", 7);
    const informer = configMapInformer(ns, 3);
    const recorder = new Recorder();
    const syncedDuringAdds: boolean[] = [];
    informer.addEventHandler({
      add: (obj, info) => {
        syncedDuringAdds.push(informer.hasSynced);
        recorder.handlers.add(obj, info);
      },
    });
    const pages: number[] = [];
    informer.on("listPage", (p) => pages.push(p.items));
    const synced = until(informer, "synced");
    informer.start();
    await synced;
    const lists = s.log.lists(configMapsPath(ns));

    expect(informer.hasSynced).toBe(true);
    expect(recorder.of("add")).toHaveLength(7);
    expect(syncedDuringAdds.every((s) => s === false)).toBe(true);
    expect(pages).toEqual([3, 3, 1]);
    expect(storeState(informer)).toEqual(await serverState(s.t, configMapsPath(ns)));
    if (s.t.kind === "reference") {
      expect(lists.map((l) => l.query.get("limit"))).toEqual(["3", "3", "3"]);
      // The first page reads the most recent state; the others continue from its snapshot.
      expect(lists[0]?.query.has("resourceVersion")).toBe(false);
      expect(lists[0]?.query.has("continue")).toBe(false);
      expect(lists.slice(1).every((l) => l.query.has("continue"))).toBe(true);
    }
  });

  it("S2: initial adds carry isInInitialList true, later adds false", async () => {
    const ns = await namespaceWith("s2", 2);
    const informer = configMapInformer(ns, 500);
    const recorder = new Recorder();
    informer.addEventHandler(recorder.handlers);
    const synced = until(informer, "synced");
    informer.start();
    await synced;
    await createConfigMap(s.t, ns, "later");
    await recorder.until((l) => l.some((r) => r.name === "later"), "add of later");

    expect(recorder.of("add")).toEqual([
      expect.objectContaining({ name: "cm-0", initial: true }),
      expect.objectContaining({ name: "cm-1", initial: true }),
      expect.objectContaining({ name: "later", initial: false }),
    ]);
  });

  it("S3: page size 1 on 3 objects makes 3 list requests", async () => {
    const ns = await namespaceWith("s3", 3);
    const informer = configMapInformer(ns, 1);
    const pages: number[] = [];
    informer.on("listPage", (p) => pages.push(p.page));
    const synced = until(informer, "synced");
    informer.start();
    await synced;

    expect(pages).toEqual([1, 2, 3]);
    expect(informer.store.size).toBe(3);
    if (s.t.kind === "reference") {
      const lists = s.log.lists(configMapsPath(ns));
      expect(lists).toHaveLength(3);
      expect(lists.every((l) => l.query.get("limit") === "1" && l.status === 200)).toBe(true);
    }
  });

  it("S40: later pages are sized from the bytes of the page before: at most doubled, never below pageSize", async () => {
    const ns = await namespaceWith("s40", 30);
    const sizes = async (pageBytes: number) => {
      const informer = configMapInformer(ns, 2, pageBytes);
      const pages: number[] = [];
      informer.on("listPage", (p) => pages.push(p.items));
      const synced = until(informer, "synced");
      informer.start();
      await synced;
      expect(storeState(informer)).toEqual(await serverState(s.t, configMapsPath(ns)));
      await informer.stop();
      return pages;
    };
    // 1 MiB is far more than two small ConfigMaps: each page doubles.
    expect(await sizes(1024 * 1024)).toEqual([2, 4, 8, 16]);
    // One byte is far less than one: pages stay at pageSize.
    expect(await sizes(1)).toEqual(Array.from({ length: 15 }, () => 2));
    if (s.t.kind === "reference") {
      const limits = s.log.lists(configMapsPath(ns)).map((l) => l.query.get("limit"));
      expect(limits).toEqual(["2", "4", "8", "16", ...Array.from({ length: 15 }, () => "2")]);
    }
  });

  it("S4: the watch starts at the list's resourceVersion, so a write during the list arrives as an event", async () => {
    const ns = await namespaceWith("s4", 3);
    const informer = configMapInformer(ns, 1);
    const recorder = new Recorder();
    informer.addEventHandler(recorder.handlers);
    let listRv = "";
    informer.on("listDone", (d) => {
      listRv = d.resourceVersion;
    });
    let written: Promise<KubernetesObject> | undefined;
    informer.on("listPage", (p) => {
      // After the first page the snapshot is fixed; this write is newer than the list.
      if (p.page === 1) written = createConfigMap(s.t, ns, "during-list");
    });
    const synced = until(informer, "synced");
    informer.start();
    await synced;
    await written;
    await recorder.until((l) => l.some((r) => r.name === "during-list"), "add of during-list");

    const adds = recorder.of("add").filter((r) => r.name === "during-list");
    expect(adds).toHaveLength(1);
    if (s.t.kind === "reference") {
      // In process the write certainly lands between the pages: it is not in the list, but in the watch.
      expect(adds[0]).toMatchObject({ initial: false });
      expect(Number(adds[0]?.rv)).toBeGreaterThan(Number(listRv));
    }
    expect(storeState(informer)).toEqual(await serverState(s.t, configMapsPath(ns)));
  });

  it("S9: progress events report pages and objects received during the initial list", async () => {
    const ns = await namespaceWith("s9", 7);
    const informer = configMapInformer(ns, 2);
    const pages: { page: number; items: number; total: number; more: boolean }[] = [];
    informer.on("listPage", ({ page, items, total, more }) => pages.push({ page, items, total, more }));
    const done = until(informer, "listDone");
    informer.start();
    const [summary] = await done;

    expect(pages).toEqual([
      { page: 1, items: 2, total: 2, more: true },
      { page: 2, items: 2, total: 4, more: true },
      { page: 3, items: 2, total: 6, more: true },
      { page: 4, items: 1, total: 7, more: false },
    ]);
    expect(summary).toMatchObject({ items: 7, pages: 4, streaming: false });
  });
});

// Reason for reference-only: expiring a continue token needs compaction on demand (fault controls).
describe.runIf(targetKind === "reference")("initial sync with an expired continue token", () => {
  it("S5: a 410 on a continue page leads to one full list without limit", async () => {
    const server = s.t.reference as RunningServer;
    const ns = await namespaceWith("s5", 5);
    const informer = configMapInformer(ns, 2);
    const relists: string[] = [];
    informer.on("relist", (r) => relists.push(r.reason));
    informer.on("listPage", (p) => {
      // Between page 1 and 2: a newer write, then compaction past the list's snapshot.
      if (p.page === 1 && relists.length === 0) {
        seedConfigMaps(server, ns, ["extra"]);
        server.faults.compact();
      }
    });
    const synced = until(informer, "synced");
    informer.start();
    await synced;
    const lists = s.log.lists(configMapsPath(ns));

    expect(lists.map((l) => [l.status, l.query.get("limit"), l.query.has("continue")])).toEqual([
      [200, "2", false],
      [410, "2", true],
      [200, null, false],
    ]);
    expect(relists).toEqual(["continue-expired"]);
    expect(informer.store.size).toBe(6);
    expect(storeState(informer)).toEqual(await serverState(s.t, configMapsPath(ns)));
  });
});
