/**
 * The per-handler queue's overflow policy, as a property: whatever the changes and however far a
 * handler falls behind, once it catches up its own picture equals the store, and every notification
 * it got was a valid transition (no add of a known object, no update from a state it never saw, no
 * delete of an unknown object).
 */
import type { KubernetesObject } from "@kubesdk/models";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HandlerQueue } from "../src/handler-queue.js";
import type { Notification } from "../src/handlers.js";
import { Store } from "../src/store.js";
import { DeletedFinalStateUnknown } from "../src/tombstone.js";

type Op =
  | { kind: "put"; name: number }
  | { kind: "delete"; name: number }
  | { kind: "relist"; keep: number[] }
  | { kind: "release" }
  // Lets the queue run up to the handler's next wait without releasing it.
  | { kind: "tick" };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant("put" as const), name: fc.integer({ min: 0, max: 7 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("delete" as const), name: fc.integer({ min: 0, max: 7 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("relist" as const),
      keep: fc.array(fc.integer({ min: 0, max: 7 }), { maxLength: 8 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "release" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "tick" as const }) },
);

async function run(ops: Op[], maxPending: number): Promise<{ violations: string[]; overflows: number }> {
  const store = new Store<KubernetesObject>();
  let rv = 0;
  const obj = (name: number): KubernetesObject => ({
    metadata: { name: `o${name}`, resourceVersion: String(++rv) },
  });
  const view = new Map<string, string>();
  const violations: string[] = [];
  let release: () => void = () => {};
  let gate = new Promise<void>((r) => {
    release = r;
  });
  let overflows = 0;
  const key = (o: KubernetesObject) => o.metadata?.name ?? "";
  const queue = new HandlerQueue<KubernetesObject>({
    name: "h",
    maxPending,
    store,
    onError: (e) => violations.push(String(e.cause)),
    onOverflow: () => overflows++,
    onSynced: () => {},
    handlers: {
      add: async (o) => {
        await gate;
        if (view.has(key(o))) violations.push(`add of known ${key(o)}`);
        view.set(key(o), o.metadata?.resourceVersion ?? "");
      },
      update: async (a, b) => {
        await gate;
        if (view.get(key(a)) !== a.metadata?.resourceVersion)
          violations.push(`update of ${key(a)} from unseen state`);
        view.set(key(b), b.metadata?.resourceVersion ?? "");
      },
      delete: async (o) => {
        await gate;
        const k = o instanceof DeletedFinalStateUnknown ? o.key : key(o);
        if (!view.delete(k)) violations.push(`delete of unknown ${k}`);
      },
    },
  });
  for (const o of ops) {
    let batch: Notification<KubernetesObject>[] = [];
    if (o.kind === "put") {
      const next = obj(o.name);
      const old = store.upsert(next);
      batch = [
        old
          ? { type: "update", oldObj: old, newObj: next }
          : { type: "add", obj: next, isInInitialList: false },
      ];
    } else if (o.kind === "delete") {
      const old = store.delete(`o${o.name}`);
      if (old) batch = [{ type: "delete", obj: old }];
    } else if (o.kind === "relist") {
      const diff = store.replace([...new Set(o.keep)].map((n) => store.get(`o${n}`) ?? obj(n)));
      // The adds of a relist as one run (as the informer queues them) or one by one, so the property
      // covers overflows that land in the middle of a run as well.
      const adds: Notification<KubernetesObject>[] =
        o.keep.length % 2 === 0
          ? [{ type: "adds", objs: diff.added, isInInitialList: false }]
          : diff.added.map((a) => ({ type: "add", obj: a, isInInitialList: false }));
      batch = [
        ...adds,
        ...diff.updated.map((u): Notification<KubernetesObject> => ({ type: "update", ...u })),
        ...diff.deleted.map((d): Notification<KubernetesObject> => ({ type: "delete", obj: d })),
      ];
    } else if (o.kind === "tick") {
      await new Promise((r) => setImmediate(r));
    } else {
      release();
      await new Promise((r) => setImmediate(r));
      gate = new Promise<void>((r) => {
        release = r;
      });
    }
    queue.enqueue(batch);
  }
  release();
  gate = Promise.resolve();
  for (let i = 0; i < 50 && queue.pending > 0; i++) await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  const storeView = new Map(store.list().map((o) => [key(o), o.metadata?.resourceVersion ?? ""]));
  if (JSON.stringify([...view].sort()) !== JSON.stringify([...storeView].sort()))
    violations.push(`view ${JSON.stringify([...view])} != store ${JSON.stringify([...storeView])}`);
  return { violations, overflows };
}

describe("HandlerQueue", () => {
  it("an overflow while a run of adds is half delivered: the delivered part counts as seen", async () => {
    // o0 and o1 are queued as one run; o0 is being handled when three updates overflow the queue.
    const ops: Op[] = [
      { kind: "relist", keep: [0, 1] },
      { kind: "tick" },
      { kind: "put", name: 0 },
      { kind: "put", name: 1 },
      { kind: "put", name: 0 },
    ];
    const { violations, overflows } = await run(ops, 0);
    expect(overflows).toBe(1);
    expect(violations).toEqual([]);
  });

  it("S32: a handler far behind has its backlog dropped and catches up from the store to exactly its state", async () => {
    let overflowed = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 80 }),
        fc.integer({ min: 0, max: 6 }),
        async (ops, maxPending) => {
          const { violations, overflows } = await run(ops, maxPending);
          if (overflows > 0) overflowed++;
          expect(violations).toEqual([]);
        },
      ),
      { numRuns: 300, seed: 32 },
    );
    // The property must have exercised the overflow path, not only the happy one.
    expect(overflowed).toBeGreaterThan(50);
  });
});
