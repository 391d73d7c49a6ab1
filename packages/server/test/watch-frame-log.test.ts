/**
 * The frame log (watch/frame-log.ts): the JSON watch frames of recent writes as bytes, appended as
 * each write is dispatched, which a replay hands to the socket as views (watch/replay-join.ts).
 */
import { describe, expect, it } from "vitest";
import { MvccStore, type StoredObject } from "../src/storage/mvcc.js";
import { FRAME_LOG_BYTES, type FrameLog } from "../src/watch/frame-log.js";
import { NO_GROUP } from "../src/watch/label-groups.js";
import { FrameJoin, replayFrameList } from "../src/watch/replay-frames.js";
import { jsonFrame } from "../src/watch/watch-framing.js";
import { WatchHub } from "../src/watch/watch-hub.js";

const LIMIT = 3 << 20;

function setup() {
  const store = new MvccStore();
  const hub = new WatchHub(store);
  const cm = (name: string, data: Record<string, string> = { k: "v" }): StoredObject => ({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, namespace: "ns" },
    data,
  });
  return { store, log: hub.log, cm };
}

/** The logged frame of the write at `rev` (a fresh cursor), or undefined. */
function logged(log: FrameLog, rev: number): Buffer | undefined {
  const c = log.cursor();
  if (!c.seek(rev)) return undefined;
  expect(c.buf.subarray(c.start, c.text).toString()).toMatch(/^\{"type":"(ADDED|MODIFIED)","object":$/);
  return c.buf.subarray(c.start, c.end);
}

const rev = (o: StoredObject) => Number(o.metadata.resourceVersion);

describe("the frame log", () => {
  it("holds jsonFrame's bytes of each measured write, under the write's own event type", () => {
    const { store, log, cm } = setup();
    const a = store.create("cm", "ns/a", cm("a", { e: "名前 ☃ 😀 \u2028" }), LIMIT);
    const b = store.update("cm", "ns/a", { ...a, data: { k: "x" } }, undefined, LIMIT);
    expect(logged(log, rev(a))).toEqual(jsonFrame("ADDED", a));
    expect(logged(log, rev(b))).toEqual(jsonFrame("MODIFIED", b));
    // Writes the limit did not measure, and deletes, have no text: not logged.
    const c = store.create("cm", "ns/c", cm("c"));
    const d = store.delete("cm", "ns/a");
    expect([logged(log, rev(c)), logged(log, rev(d))]).toEqual([undefined, undefined]);
  });

  it("is read in increasing revisions, and finds what it holds among gaps", () => {
    const { store, log, cm } = setup();
    const written = Array.from({ length: 50 }, (_, i) =>
      store.create("cm", `ns/${i}`, cm(`${i}`), i % 3 ? LIMIT : undefined),
    );
    const c = log.cursor();
    const found = written.map((o) => c.seek(rev(o)));
    expect(found).toEqual(written.map((_, i) => i % 3 !== 0));
    expect(c.seek(store.revision + 1)).toBe(false);
  });

  it("keeps at least its budget of recent frames, dropping whole chunks, oldest first", () => {
    const { store, log, cm } = setup();
    const data = { k: "x".repeat(10_000) };
    const n = Math.ceil((3 * FRAME_LOG_BYTES) / 10_000);
    const written = Array.from({ length: n }, (_, i) =>
      store.create("cm", `ns/${i}`, cm(`${i}`, data), LIMIT),
    );
    const c = log.cursor();
    const held = written.map((o) => c.seek(rev(o)));
    const first = held.indexOf(true);
    // Evicted: a prefix. Held: every frame since, at least the budget's worth.
    expect(first).toBeGreaterThan(0);
    expect(held.slice(first).every(Boolean)).toBe(true);
    expect((n - first) * 10_000).toBeGreaterThanOrEqual(FRAME_LOG_BYTES);
    expect(log.heldBytes).toBeLessThanOrEqual(FRAME_LOG_BYTES + 2 * (1 << 20));
    // A frame larger than a chunk gets one of its own.
    const big = store.create("cm", "ns/big", cm("big", { k: "y".repeat(3 << 20) }), 4 << 20);
    // Compared as a whole: a deep comparison of 3 MiB runs byte by byte.
    expect(logged(log, rev(big))?.equals(jsonFrame("ADDED", big))).toBe(true);
  });

  it("hands a replay views that later writes never change", () => {
    const { store, log, cm } = setup();
    const objs = ["a", "b", "c"].map((n) => store.create("cm", `ns/${n}`, cm(n), LIMIT));
    const join = new FrameJoin();
    const c = log.cursor();
    for (const o of objs) {
      expect(c.seek(rev(o))).toBe(true);
      join.view(c.buf, c.start, c.end);
    }
    join.bytes(Buffer.from("other\n"));
    const r = join.finish();
    const expected = [...objs.map((o) => jsonFrame("ADDED", o)), Buffer.from("other\n")];
    // Neighbours in the log: one view; the other frame: a part of its own.
    expect(r.parts).toHaveLength(2);
    for (let i = 0; i < (3 * FRAME_LOG_BYTES) / 10_000; i++)
      store.create("cm", `ns/more-${i}`, cm(`more-${i}`, { k: "z".repeat(10_000) }), LIMIT);
    expect(c.seek(rev(objs[0] as StoredObject))).toBe(false);
    expect(replayFrameList(r)).toEqual(expected);
    expect(Buffer.concat(r.parts)).toEqual(Buffer.concat(expected));
  });

  it("puts creates a label selector must judge alike in one group, and nothing else", () => {
    const { store, log } = setup();
    const cm = (ns: string, labels?: Record<string, string>, apiVersion = "v1"): StoredObject => ({
      apiVersion,
      kind: "ConfigMap",
      metadata: { name: "n", namespace: ns, ...(labels ? { labels } : {}) },
    });
    let n = 0;
    const create = (bucket: string, o: StoredObject) =>
      store.create(bucket, `${o.metadata.namespace as string}/${n++}`, o, LIMIT);
    const groupOf = (o: StoredObject): number => {
      const c = log.cursor();
      expect(c.seek(rev(o))).toBe(true);
      return c.frames.groups[c.at] as number;
    };
    const a = create("cm", cm("ns", { app: "x", shard: "1" }));
    const same = create("cm", cm("ns", { app: "x", shard: "1" }));
    const others = [
      create("cm", cm("ns", { app: "x", shard: "2" })),
      create("cm", cm("ns", { app: "x" })),
      // The same labels in another order: another group (judged on its own, not wrongly).
      create("cm", cm("ns", { shard: "1", app: "x" })),
      create("cm", cm("other", { app: "x", shard: "1" })),
      create("cm", cm("ns", { app: "x", shard: "1" }, "v2")),
      create("secrets", cm("ns", { app: "x", shard: "1" })),
      create("cm", cm("ns")),
    ];
    const unlabelled = create("cm", cm("ns", {}));
    const updated = store.update("cm", `ns/0`, { ...a, data: { k: "v" } }, undefined, LIMIT);
    expect(groupOf(same)).toBe(groupOf(a));
    const groups = [a, ...others].map(groupOf);
    expect(new Set(groups).size).toBe(groups.length);
    expect(groups).not.toContain(NO_GROUP);
    // No labels and empty labels: alike. An update: judged alone.
    expect(groupOf(unlabelled)).toBe(groupOf(others[6] as StoredObject));
    expect(groupOf(updated)).toBe(NO_GROUP);
  });
});
