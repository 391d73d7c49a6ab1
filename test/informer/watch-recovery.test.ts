/**
 * How the reflector reacts to a watch that ends badly (scenarios 14–17, 19, 20).
 * Reason for reference-only (except S16, which is pure): every case is produced with the reference
 * server's fault controls or a TCP proxy in front of it; a real apiserver cannot be made to fail so.
 */
import type { KubernetesObject } from "@kubesdk/models";
import { apiErrorFromStatus, type HttpTransport, isTooLargeResourceVersion } from "@kubesdk/transport";
import { describe, expect, it } from "vitest";
import {
  decideAfterListFailure,
  decideAfterWatch,
  type WatchOutcome,
} from "../../packages/informer/src/reactions.js";
import { targetKind } from "../support/target.js";
import {
  configMapsPath,
  connect,
  createConfigMap,
  rvOf,
  serverState,
  storeState,
  until,
  untilState,
} from "./support/harness.js";
import { endNextWatches } from "./support/reference.js";
import { type SuiteInformerOptions, useInformerSuite } from "./support/suite.js";
import { startTcpProxy } from "./support/tcp-proxy.js";

describe.runIf(targetKind === "reference")("watch recovery", () => {
  const s = useInformerSuite({ watch: { bookmarkIntervalMs: 150 } });

  const syncedInformer = (
    ns: string,
    extra: SuiteInformerOptions<KubernetesObject> = {},
    tr?: HttpTransport,
  ) => s.synced(s.informer({ namespace: ns, ...extra }, tr));

  /** A fresh namespace with an informer whose current watch has delivered one event. */
  async function watchingWithOneEvent(
    prefix: string,
    extra: SuiteInformerOptions<KubernetesObject> = {},
    tr?: HttpTransport,
  ) {
    const ns = await s.namespace(prefix);
    const informer = await syncedInformer(ns, extra, tr);
    const first = await createConfigMap(s.t, ns, "first");
    await untilState(informer, () => informer.store.has(`${ns}/first`), "first cached");
    return { ns, informer, firstRv: rvOf(first) };
  }

  it("S14: a stream that ends within the minimum duration with no event counts as a failure: back off, then relist", async () => {
    const { ns, informer } = await watchingWithOneEvent("s14");
    const ends: string[] = [];
    informer.on("watchEnd", (e) => ends.push(e.reason));
    const backoffs: string[] = [];
    informer.on("backoff", (b) => backoffs.push(b.reason));
    const relist = until(informer, "relist");
    const rvBefore = informer.lastSyncResourceVersion;
    endNextWatches(s.server, 1);
    s.server.faults.dropWatches({ namespace: ns }, "end");
    const [info] = await relist;
    await until(informer, "watchStart");

    expect(ends).toEqual(["closed", "short"]);
    expect(backoffs).toEqual(["short"]);
    expect(info).toEqual({ reason: "short", resourceVersion: rvBefore });
    const lists = s.log.lists(configMapsPath(ns));
    expect(lists).toHaveLength(2);
    expect(lists[1]?.query.get("resourceVersion")).toBe(rvBefore);
    expect(lists[1]?.query.has("limit")).toBe(false);
  });

  it("S15: an ERROR 410 relists at the last resourceVersion; when that list is too large the next one lists the latest state", async () => {
    const { ns, informer, firstRv } = await watchingWithOneEvent("s15");
    const relists: unknown[] = [];
    informer.on("relist", (r) => relists.push(r));
    const expired = until(informer, "watchEnd", (e) => e.reason === "expired");
    // A write the informer cannot see, then a restart that compacts it out of reach.
    s.server.faults.pauseDelivery();
    await createConfigMap(s.t, ns, "unseen");
    s.server.faults.failNext(
      1,
      { status: 504, tooLargeResourceVersion: true },
      { namespace: ns, verb: "list" },
    );
    s.server.faults.restart();
    s.server.faults.resumeDelivery();
    await expired;
    await untilState(informer, () => informer.store.has(`${ns}/unseen`), "unseen cached");

    expect(relists).toEqual([{ reason: "expired", resourceVersion: firstRv }]);
    const lists = s.log.lists(configMapsPath(ns)).slice(1);
    expect(lists.map((l) => [l.status, l.query.get("resourceVersion"), l.query.get("limit")])).toEqual([
      [504, firstRv, null],
      [200, null, "500"],
    ]);
    expect(storeState(informer)).toEqual(await serverState(s.t, configMapsPath(ns)));
  });

  it("S17: 429 (with and without Retry-After) and refused connections on the watch: wait, then watch again at the same resourceVersion without a list", async () => {
    const { ns, informer } = await watchingWithOneEvent("s17");
    const rv = informer.lastSyncResourceVersion;
    const backoffs: { reason: string; delayMs: number; retryAfterMs?: number }[] = [];
    informer.on("backoff", (b) => backoffs.push(b));
    const starts: (string | undefined)[] = [];
    informer.on("watchStart", (w) => starts.push(w.resourceVersion));
    s.server.faults.failNext(1, { status: 429, retryAfterSeconds: 1 }, { namespace: ns, verb: "watch" });
    s.server.faults.failNext(1, { status: 429, retryAfterSeconds: 0 }, { namespace: ns, verb: "watch" });
    s.server.faults.dropWatches({ namespace: ns }, "end");
    await untilState(
      informer,
      () => starts.length === 3 && informer.reflectorState === "Watching",
      "third watch",
    );
    const late = await createConfigMap(s.t, ns, "after-429");
    await untilState(informer, () => informer.store.has(`${ns}/after-429`), "after-429 cached");

    expect(backoffs.map((b) => b.reason)).toEqual(["throttled", "throttled"]);
    expect(backoffs[0]?.retryAfterMs).toBe(1000);
    expect(backoffs[0]?.delayMs).toBeGreaterThanOrEqual(1000);
    expect(backoffs[1]?.retryAfterMs).toBeUndefined();
    expect(starts).toEqual([rv, rv, rv]);
    expect(informer.lastSyncResourceVersion).toBe(rvOf(late));
    const watches = s.log.watches(configMapsPath(ns));
    expect(watches.filter((w) => w.status === 429).map((w) => w.query.get("resourceVersion"))).toEqual([
      rv,
      rv,
    ]);
    expect(s.log.lists(configMapsPath(ns))).toHaveLength(1);
    expect(informer.stats().relists).toBe(0);

    // Connection refused: the same, through a proxy that stops accepting connections.
    const proxy = await startTcpProxy(s.server.port);
    const proxied = await connect(s.t, `https://127.0.0.1:${proxy.port}`);
    try {
      const p = await watchingWithOneEvent("s17-refused", {}, proxied);
      const prv = p.informer.lastSyncResourceVersion;
      const pStarts: (string | undefined)[] = [];
      p.informer.on("watchStart", (w) => pStarts.push(w.resourceVersion));
      const refusedTwice = untilState(
        p.informer,
        () => (p.informer.stats().watchEnds.refused ?? 0) >= 2,
        "two refused watches",
      );
      await proxy.refuse();
      await refusedTwice;
      await proxy.accept();
      const after = await createConfigMap(s.t, p.ns, "after-refused");
      await untilState(
        p.informer,
        () => p.informer.store.has(`${p.ns}/after-refused`),
        "after-refused cached",
      );

      expect(p.informer.stats().watchEnds.refused).toBeGreaterThanOrEqual(2);
      expect(new Set(pStarts)).toEqual(new Set([prv]));
      expect(p.informer.stats().relists).toBe(0);
      expect(p.informer.stats().lists).toBe(1);
      expect(p.informer.lastSyncResourceVersion).toBe(rvOf(after));
      await p.informer.stop();
    } finally {
      await proxied.close();
      await proxy.close();
    }
  });

  it("S19: a malformed line ends the watch with a clear error and a relist, never silently skipped", async () => {
    const { ns, informer } = await watchingWithOneEvent("s19");
    const errors: { code: unknown; during: string }[] = [];
    informer.on("error", (err, ctx) =>
      errors.push({ code: (err as { code?: unknown }).code, during: ctx.during }),
    );
    const relist = until(informer, "relist");
    s.server.faults.malformedEvent({ namespace: ns });
    // This event is replaced on the wire by a broken line; the relist must still bring it.
    await createConfigMap(s.t, ns, "hidden-by-garbage");
    const [info] = await relist;
    await untilState(
      informer,
      () => informer.store.has(`${ns}/hidden-by-garbage`),
      "hidden-by-garbage cached",
    );

    expect(errors).toEqual([{ code: "WATCH_EVENT_MALFORMED", during: "watch" }]);
    expect(info.reason).toBe("malformed");
    expect(informer.stats().watchEnds.malformed).toBe(1);
    expect(storeState(informer)).toEqual(await serverState(s.t, configMapsPath(ns)));
  });

  it("S20: an idle watch (no bytes, no bookmarks) is treated as dead and replaced", async () => {
    const { ns, informer } = await watchingWithOneEvent("s20", { idleTimeoutMs: 800 });
    const rv = informer.lastSyncResourceVersion;
    const starts: (string | undefined)[] = [];
    informer.on("watchStart", (w) => starts.push(w.resourceVersion));
    const idleTwice = untilState(
      informer,
      () => (informer.stats().watchEnds.idle ?? 0) >= 2,
      "two idle watches",
    );
    s.server.faults.stallWatches({ namespace: ns });
    await idleTwice;
    s.server.faults.unstall();
    const live = await createConfigMap(s.t, ns, "after-stall");
    await untilState(informer, () => informer.store.has(`${ns}/after-stall`), "after-stall cached", 20_000);

    expect(new Set(starts.slice(0, 2))).toEqual(new Set([rv]));
    expect(informer.stats().relists).toBe(0);
    expect(informer.lastSyncResourceVersion).toBe(rvOf(live));
  });
});

describe("resourceVersion too large", () => {
  const forms = {
    "a cause with reason ResourceVersionTooLarge": apiErrorFromStatus(
      {
        kind: "Status",
        apiVersion: "v1",
        status: "Failure",
        message: "Timeout: request did not complete",
        reason: "Timeout",
        code: 504,
        details: { causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }] },
      },
      { httpCode: 504 },
    ),
    "a 504 whose cause message says it": apiErrorFromStatus(
      {
        kind: "Status",
        apiVersion: "v1",
        status: "Failure",
        message: "Timeout: request did not complete",
        reason: "Timeout",
        code: 504,
        details: { causes: [{ message: "Too large resource version" }] },
      },
      { httpCode: 504 },
    ),
    "the message text alone": apiErrorFromStatus(
      {
        kind: "Status",
        apiVersion: "v1",
        status: "Failure",
        message: "Too large resource version: 200, current: 100",
        code: 500,
      },
      { httpCode: 500 },
    ),
  };

  it.each(Object.entries(forms))(
    "S16: %s is recognised: the next list reads the latest state",
    (_name, err) => {
      expect(isTooLargeResourceVersion(err)).toBe(true);
      expect(
        decideAfterListFailure(err, { resourceVersion: "200", limit: undefined }, false, false, 500),
      ).toMatchObject({
        next: "list",
        wait: "backoff",
        plan: { resourceVersion: undefined, limit: 500 },
      });
      const outcome: WatchOutcome = {
        error: err,
        events: 3,
        durationMs: 5000,
        initialPending: false,
        stopped: false,
      };
      expect(decideAfterWatch(outcome, 1000).reaction).toMatchObject({ next: "list", from: "latest" });
      const streaming: WatchOutcome = { ...outcome, events: 0, initialPending: true };
      expect(decideAfterWatch(streaming, 1000).reaction).toMatchObject({ next: "list", from: "latest" });
    },
  );
});
