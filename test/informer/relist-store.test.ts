/**
 * Relists and the store (scenarios 22–24, 26–28). S26 and S27 also run against a real kube-apiserver;
 * the others force relists with the reference server's fault controls (pause, restart/compaction) or
 * cut the connection with a TCP proxy.
 */
import {
  byLabel,
  byNodeName,
  byOwnerUid,
  type DeletedFinalStateUnknown,
  type Informer,
  NAMESPACE_INDEX,
} from "@kubesdk/informer";
import type { KubernetesObject } from "@kubesdk/models";
import type { RunningServer } from "@kubesdk/server";
import type { HttpTransport } from "@kubesdk/transport";
import { describe, expect, it } from "vitest";
import { targetKind, uniqueName } from "../support/target.js";
import {
  configMapsPath,
  connect,
  createConfigMap,
  deleteConfigMap,
  nameOf,
  patchConfigMap,
  Recorder,
  rvOf,
  serverState,
  storeState,
  until,
  untilState,
} from "./support/harness.js";
import { seedConfigMaps, updateConfigMapInStore } from "./support/reference.js";
import { type SuiteInformerOptions, useInformerSuite } from "./support/suite.js";
import { startTcpProxy } from "./support/tcp-proxy.js";

// Frequent bookmarks: a watch that has received one counts as established (see S24).
const s = useInformerSuite({ watch: { bookmarkIntervalMs: 200 } });

async function startInformer<T extends KubernetesObject = KubernetesObject>(
  options: SuiteInformerOptions<T>,
  tr: HttpTransport = s.transport,
  beforeStart: (i: Informer<T>) => void = () => {},
): Promise<Informer<T>> {
  const informer = s.informer<T>(options, tr);
  beforeStart(informer);
  return s.synced(informer);
}

const freshNamespace = (prefix: string) => s.namespace(prefix);

/**
 * Makes the informer miss what `writes` does, then forces a relist: delivery is paused, the writes
 * happen, and a restart compacts history so the informer's resourceVersion has expired.
 */
async function missThenRelist(server: RunningServer, informer: Informer, writes: () => Promise<void> | void) {
  const replaced = until(informer, "replace", (r) => !r.initial);
  server.faults.pauseDelivery();
  await writes();
  server.faults.restart();
  server.faults.resumeDelivery();
  const [info] = await replaced;
  return info;
}

// Reason for reference-only: relists are forced by pausing delivery and compacting history.
describe.runIf(targetKind === "reference")("relist", () => {
  it("S22/S23: after a relist, vanished objects are deletes with a tombstone, changed ones exactly one update, new ones one add, unchanged ones nothing", async () => {
    const server = s.t.reference as RunningServer;
    const ns = await freshNamespace("s22");
    const before = new Map<string, KubernetesObject>();
    for (const name of ["gone-1", "gone-2", "changed", "same-1", "same-2", "same-3"])
      before.set(name, await createConfigMap(s.t, ns, name, { v: "0" }));
    const recorder = new Recorder();
    const tombstones: DeletedFinalStateUnknown<KubernetesObject>[] = [];
    const informer = await startInformer({ namespace: ns }, s.transport, (i) => {
      i.addEventHandler(recorder.handlers);
      i.addEventHandler({
        delete: (obj) => {
          if ("key" in obj) tombstones.push(obj as DeletedFinalStateUnknown<KubernetesObject>);
        },
      });
    });
    const initial = recorder.log.length;

    const info = await missThenRelist(server, informer, async () => {
      await deleteConfigMap(s.t, ns, "gone-1");
      await deleteConfigMap(s.t, ns, "gone-2");
      await patchConfigMap(s.t, ns, "changed", { data: { v: "1" } });
      await patchConfigMap(s.t, ns, "changed", { data: { v: "2" } });
      await createConfigMap(s.t, ns, "new");
    });
    await recorder.until((l) => l.length === initial + 4, "four relist notifications");

    expect(info).toMatchObject({ added: 1, updated: 1, deleted: 2, unchanged: 3 });
    const changes = recorder.log.slice(initial);
    expect(changes).toHaveLength(4);
    expect(changes).toEqual(
      expect.arrayContaining([
        { type: "add", name: "new", rv: expect.any(String), initial: false },
        {
          type: "update",
          name: "changed",
          oldRv: rvOf(before.get("changed") as KubernetesObject),
          rv: expect.any(String),
        },
        {
          type: "delete",
          name: "gone-1",
          rv: rvOf(before.get("gone-1") as KubernetesObject),
          tombstone: true,
        },
        {
          type: "delete",
          name: "gone-2",
          rv: rvOf(before.get("gone-2") as KubernetesObject),
          tombstone: true,
        },
      ]),
    );
    expect(tombstones.map((d) => d.key).sort()).toEqual([`${ns}/gone-1`, `${ns}/gone-2`]);
    expect(tombstones.every((d) => nameOf(d.obj) === d.key.split("/")[1])).toBe(true);
    expect(storeState(informer)).toEqual(await serverState(s.t, configMapsPath(ns)));
  });

  it("S24: a disconnect during which 1% of 10 000 objects changed yields exactly those 100 events (by watch resume and by relist)", async () => {
    const server = s.t.reference as RunningServer;
    const ns = await freshNamespace("s24");
    const names = Array.from({ length: 10_000 }, (_, i) => `cm-${String(i).padStart(5, "0")}`);
    seedConfigMaps(server, ns, names);
    const changed = names.filter((_, i) => i % 100 === 7);
    expect(changed).toHaveLength(100);

    const proxy = await startTcpProxy(server.port);
    const proxied = await connect(s.t, `https://127.0.0.1:${proxy.port}`);
    try {
      const recorder = new Recorder();
      const informer = await startInformer({ namespace: ns }, proxied, (i) =>
        i.addEventHandler(recorder.handlers),
      );
      await recorder.until((l) => l.length === 10_000, "initial adds");
      // 500, 1 000, 2 000, 4 000 and the last 2 500: pages double while far under pageBytes.
      expect(informer.stats().listPages).toBe(5);

      // 1. Cut off (connections refused) an established watch (it has had a bookmark); it resumes at
      // its resourceVersion afterwards.
      await until(informer, "event", (e) => e.type === "BOOKMARK");
      const refused = untilState(
        informer,
        () => (informer.stats().watchEnds.refused ?? 0) >= 1,
        "a refused watch",
      );
      await proxy.refuse();
      for (const name of changed) updateConfigMapInStore(server, ns, name, { v: "1" });
      await refused;
      await proxy.accept();
      await recorder.until((l) => l.length === 10_100, "100 updates after the disconnect");
      const resumed = recorder.log.slice(10_000);
      expect(resumed.every((r) => r.type === "update")).toBe(true);
      expect(resumed.map((r) => r.name).sort()).toEqual(changed);
      expect(informer.stats().relists).toBe(0);

      // 2. Cut off long enough for history to be compacted: a relist, diffed against the store.
      const info = await missThenRelist(server, informer, () => {
        for (const name of changed) updateConfigMapInStore(server, ns, name, { v: "2" });
      });
      await recorder.until((l) => l.length === 10_200, "100 updates after the relist");
      expect(info).toMatchObject({ added: 0, updated: 100, deleted: 0, unchanged: 9_900 });
      const relisted = recorder.log.slice(10_100);
      expect(relisted.every((r) => r.type === "update")).toBe(true);
      expect(relisted.map((r) => r.name).sort()).toEqual(changed);
      expect(storeState(informer)).toEqual(await serverState(s.t, configMapsPath(ns)));
    } finally {
      await proxied.close();
      await proxy.close();
    }
  }, 60_000);

  it("S28: the transform runs exactly once per object received, before the store, in lists, watches, relists and streaming lists", async () => {
    const server = s.t.reference as RunningServer;
    const ns = await freshNamespace("s28");
    for (let i = 0; i < 3; i++) await createConfigMap(s.t, ns, `cm-${i}`);
    let calls = 0;
    const transform = (obj: KubernetesObject): KubernetesObject => {
      if (obj.metadata?.annotations?.transformed !== undefined) throw new Error("transformed twice");
      calls++;
      const { managedFields: _dropped, ...metadata } = obj.metadata ?? {};
      return {
        ...obj,
        metadata: { ...metadata, annotations: { ...metadata.annotations, transformed: "yes" } },
      };
    };
    const errors: Error[] = [];
    const received = { list: 0, watch: 0 };
    const track = (i: Informer) => {
      // Connection errors from the forced restart are expected; transform and object errors are not.
      i.on("error", (e, ctx) => {
        if (ctx.during !== "watch") errors.push(e);
      });
      i.on("listDone", (d) => {
        received.list += d.items;
      });
      i.on("event", (e) => {
        if (e.type !== "BOOKMARK") received.watch++;
      });
    };
    const seenInHandler: KubernetesObject[] = [];
    const informer = await startInformer({ namespace: ns, transform }, s.transport, (i) => {
      track(i);
      i.addEventHandler({
        add: (o) => void seenInHandler.push(o),
        update: (_o, n) => void seenInHandler.push(n),
      });
    });
    await createConfigMap(s.t, ns, "live");
    await patchConfigMap(s.t, ns, "cm-0", { data: { v: "1" } });
    await untilState(informer, () => informer.stats().events.MODIFIED === 1, "patch seen");
    await missThenRelist(server, informer, () =>
      patchConfigMap(s.t, ns, "cm-1", { data: { v: "1" } }).then(() => {}),
    );

    const streaming = await startInformer(
      { namespace: ns, transform, initialList: "stream" },
      s.transport,
      track,
    );

    expect(errors).toEqual([]);
    // 3 listed + 2 events + 4 relisted, then 4 streamed.
    expect(received).toEqual({ list: 3 + 4 + 4, watch: 2 });
    expect(calls).toBe(received.list + received.watch);
    for (const i of [informer, streaming]) {
      expect(i.store.size).toBe(4);
      for (const o of i.store.list()) {
        expect(o.metadata?.annotations?.transformed).toBe("yes");
        expect(o.metadata?.managedFields).toBeUndefined();
      }
    }
    expect(seenInHandler.every((o) => o.metadata?.annotations?.transformed === "yes")).toBe(true);
  });
});

describe("store", () => {
  it("S26: a handler reading the store sees a state that includes the event it is handling", async () => {
    const ns = await freshNamespace("s26");
    const violations: string[] = [];
    let informerRef: Informer | undefined;
    let handled = 0;
    let allHandled = () => {};
    const done = new Promise<void>((resolve) => {
      allHandled = resolve;
    });
    // Both handlers get 20 adds, 20 updates and 10 deletes.
    const expected = 2 * 50;
    // A handler's view may be ahead of its event (later events already applied), never behind. When the
    // object is already gone, its delete must still be coming to this handler.
    const awaitingDelete = [new Map<string, string>(), new Map<string, string>()] as const;
    const check = (handler: 0 | 1, kind: string, obj: KubernetesObject) => {
      const name = nameOf(obj);
      const rv = Number(rvOf(obj));
      const cached = informerRef?.store.get(`${ns}/${name}`);
      if (kind === "delete") {
        awaitingDelete[handler].delete(name);
        if (cached !== undefined && Number(rvOf(cached)) <= rv)
          violations.push(`delete ${name} still cached`);
      } else if (cached === undefined) awaitingDelete[handler].set(name, rvOf(obj));
      else if (Number(rvOf(cached)) < rv) violations.push(`${kind} ${name}: cached ${rvOf(cached)} < ${rv}`);
      if (++handled === expected) allHandled();
    };
    const unwrap = (o: KubernetesObject | DeletedFinalStateUnknown<KubernetesObject>) =>
      "key" in o ? (o as DeletedFinalStateUnknown<KubernetesObject>).obj : o;
    const later = () => new Promise((r) => setTimeout(r, 5));
    await startInformer({ namespace: ns }, s.transport, (i) => {
      informerRef = i;
      i.addEventHandler({
        add: (o) => check(0, "add", o),
        update: (_o, n) => check(0, "update", n),
        delete: (o) => check(0, "delete", unwrap(o)),
      });
      // A slow handler too: it runs long after later events have reached the store.
      i.addEventHandler({
        add: async (o) => {
          await later();
          check(1, "add", o);
        },
        update: async (_o, n) => {
          await later();
          check(1, "update", n);
        },
        delete: async (o) => {
          await later();
          check(1, "delete", unwrap(o));
        },
      });
    });
    for (let i = 0; i < 20; i++) await createConfigMap(s.t, ns, `cm-${i}`);
    for (let i = 0; i < 20; i++) await patchConfigMap(s.t, ns, `cm-${i}`, { data: { v: String(i) } });
    for (let i = 0; i < 10; i++) await deleteConfigMap(s.t, ns, `cm-${i}`);
    await done;

    expect(violations).toEqual([]);
    expect([...awaitingDelete[0].keys(), ...awaitingDelete[1].keys()]).toEqual([]);
  });

  it("S27: indexers: namespace by default, custom ones by label, owner uid and node name; byIndex follows adds, moves and deletes", async () => {
    const ns1 = await freshNamespace("s27a");
    const ns2 = await freshNamespace("s27b");
    const tag = uniqueName("s27");
    const ownerA = "11111111-1111-1111-1111-111111111111";
    const ownerB = "22222222-2222-2222-2222-222222222222";
    const make = async (ns: string, name: string, app: string, owners: string[]) => {
      const res = await s.t.call("POST", configMapsPath(ns), {
        body: {
          metadata: {
            name,
            labels: { app, tag },
            // Owners of a kind no server serves: a garbage collector leaves these references alone.
            ownerReferences: owners.map((uid, i) => ({
              apiVersion: "owners.kubesdk.example/v1",
              kind: "Owner",
              name: `owner-${i}`,
              uid,
            })),
          },
        },
      });
      expect(res.status).toBe(201);
    };
    await make(ns1, "a1", "web", [ownerA]);
    await make(ns1, "a2", "db", [ownerA, ownerB]);
    await make(ns2, "b1", "web", []);
    const informer = await startInformer({
      allNamespaces: true,
      labelSelector: `tag=${tag}`,
      indexers: { app: byLabel("app"), owner: byOwnerUid },
    });
    const names = (objs: KubernetesObject[]) => objs.map(nameOf).sort();

    expect(informer.store.indexNames().sort()).toEqual(["app", NAMESPACE_INDEX, "owner"].sort());
    expect(names(informer.store.byIndex(NAMESPACE_INDEX, ns1))).toEqual(["a1", "a2"]);
    expect(names(informer.store.byIndex(NAMESPACE_INDEX, ns2))).toEqual(["b1"]);
    expect(names(informer.store.byIndex("app", "web"))).toEqual(["a1", "b1"]);
    expect(names(informer.store.byIndex("owner", ownerA))).toEqual(["a1", "a2"]);
    expect(names(informer.store.byIndex("owner", ownerB))).toEqual(["a2"]);

    await make(ns2, "b2", "db", [ownerB]);
    await patchConfigMap(s.t, ns1, "a1", { metadata: { labels: { app: "db" }, ownerReferences: null } });
    await deleteConfigMap(s.t, ns1, "a2");
    await untilState(
      informer,
      () => informer.stats().events.DELETED === 1 && informer.store.size === 3,
      "changes seen",
    );

    expect(names(informer.store.byIndex("app", "web"))).toEqual(["b1"]);
    expect(names(informer.store.byIndex("app", "db"))).toEqual(["a1", "b2"]);
    expect(names(informer.store.byIndex("owner", ownerA))).toEqual([]);
    expect(names(informer.store.byIndex("owner", ownerB))).toEqual(["b2"]);
    expect(informer.store.indexValues("owner")).toEqual([ownerB]);
    expect(names(informer.store.byIndex(NAMESPACE_INDEX, ns1))).toEqual(["a1"]);
    expect(names(informer.store.byIndex(NAMESPACE_INDEX, ns2))).toEqual(["b1", "b2"]);

    // Pods by node name. A real apiserver admits pods only with their service account present (no
    // controller-manager creates "default" here).
    const sa = await s.t.call("POST", `/api/v1/namespaces/${ns1}/serviceaccounts`, {
      body: { metadata: { name: "default" } },
    });
    expect([201, 409]).toContain(sa.status);
    const pod = (name: string, nodeName: string) => ({
      metadata: { name },
      spec: {
        nodeName,
        automountServiceAccountToken: false,
        containers: [{ name: "c", image: "registry.k8s.io/pause:3.10" }],
      },
    });
    for (const [name, node] of [
      ["p1", "node-a"],
      ["p2", "node-b"],
      ["p3", "node-a"],
    ] as const) {
      const res = await s.t.call("POST", `/api/v1/namespaces/${ns1}/pods`, { body: pod(name, node) });
      expect(res.status).toBe(201);
    }
    const pods = await startInformer({
      resource: s.kube().resource("v1", "Pod"),
      namespace: ns1,
      indexers: { node: byNodeName },
    });
    expect(names(pods.store.byIndex("node", "node-a"))).toEqual(["p1", "p3"]);
    expect(names(pods.store.byIndex("node", "node-b"))).toEqual(["p2"]);
    await s.t.call("DELETE", `/api/v1/namespaces/${ns1}/pods/p1?gracePeriodSeconds=0`);
    await untilState(pods, () => !pods.store.has(`${ns1}/p1`), "p1 deleted");
    expect(names(pods.store.byIndex("node", "node-a"))).toEqual(["p3"]);
  });
});
