// A handler that does almost nothing must keep up with a watch whose reads bring many events per
// event-loop turn, also while it still receives the initial list: its queue may not overflow (which
// would drop its backlog and skip states). The watch starts as soon as the list is stored, so its
// events queue up behind the list's adds.
import type { KubernetesObject } from "@kubesdk/models";
import type { WatchEvent } from "@kubesdk/transport";
import { type BatchedWatchStream, nextWatchBatch } from "@kubesdk/transport/internal";
import { expect, it } from "vitest";
import { Informer } from "../src/informer.js";
import type { ListerWatcher } from "../src/list-watcher.js";
import { watchStreamOf } from "./watch-stream-of.js";

const OBJECTS = 5_000;
const BATCH = 1_000;
const BATCHES = 20;

const configMap = (i: number, rv: number): KubernetesObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: `cm-${i}`, namespace: "ns", resourceVersion: String(rv) },
});

/** A watch that hands out BATCH events per event-loop turn, then stays open until closed. */
function fastStream(signal: AbortSignal): BatchedWatchStream<KubernetesObject> {
  let batch = 0;
  let rv = OBJECTS;
  const closed = new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));
  const done = { done: true, value: undefined } as const;
  const stream = watchStreamOf<KubernetesObject>(async () => {
    throw new Error("read in batches only");
  });
  return Object.assign(stream, {
    async [nextWatchBatch]() {
      if (batch++ >= BATCHES) {
        await closed;
        return done;
      }
      // One socket read's worth per turn of the event loop, as a busy watch connection delivers.
      await new Promise((resolve) => setImmediate(resolve));
      const value = Array.from({ length: BATCH }, (): WatchEvent<KubernetesObject> => {
        rv++;
        return { type: "MODIFIED", object: configMap(rv % OBJECTS, rv) };
      });
      return { done: false, value };
    },
  });
}

it("a handler that does almost nothing keeps up with an initial list and 1,000 events per event-loop turn", async () => {
  const lw: ListerWatcher<KubernetesObject> = {
    async list() {
      const items = Array.from({ length: OBJECTS }, (_, i) => configMap(i, i + 1));
      return { items, resourceVersion: String(OBJECTS) };
    },
    watch: (_query, options) => fastStream(options.signal),
  };
  const informer = new Informer<KubernetesObject>({} as never, {
    listerWatcher: lw,
    // Overflow once 100 notifications (plus one store's worth) wait.
    maxPendingNotifications: 100,
  });
  let adds = 0;
  let updates = 0;
  let lastRv = 0;
  let outOfOrder = 0;
  const all = new Promise<void>((resolve, reject) => {
    informer.on("handlerOverflow", (info) => reject(new Error(`overflow: ${JSON.stringify(info)}`)));
    informer.addEventHandler({
      add: () => {
        adds++;
      },
      update: (_old, obj) => {
        const rv = Number(obj.metadata?.resourceVersion);
        if (rv <= lastRv) outOfOrder++;
        lastRv = rv;
        if (++updates === BATCH * BATCHES) resolve();
      },
    });
  });
  informer.start();
  try {
    await all;
  } finally {
    await informer.stop();
  }
  expect(adds).toBe(OBJECTS);
  expect(updates).toBe(BATCH * BATCHES);
  expect(outOfOrder).toBe(0);
});
