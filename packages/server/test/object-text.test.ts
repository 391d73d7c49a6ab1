import { describe, expect, it } from "vitest";
import { MvccStore, PreconditionError, type StoredObject } from "../src/storage/mvcc.js";
import {
  committedText,
  KEPT_TEXT_BYTES,
  KEPT_TEXTS,
  ObjectTooLargeError,
} from "../src/storage/object-text.js";

/** The size the limit counts before this change: the written object's JSON, as it was written. */
const writtenBytes = (o: unknown) => Buffer.byteLength(JSON.stringify(o));

const shapes: Record<string, StoredObject> = {
  "no resourceVersion": { metadata: { name: "a", namespace: "ns" }, data: { k: "v" } },
  "a resourceVersion string": { metadata: { name: "a", resourceVersion: "123456" }, data: { k: "v" } },
  "an empty resourceVersion": { metadata: { resourceVersion: "", name: "a" } },
  "a numeric resourceVersion": { metadata: { name: "a", resourceVersion: 7 as unknown as string } },
  "resourceVersion as the only member": { metadata: { resourceVersion: "9" } },
  "empty metadata": { metadata: {} },
  "metadata with an undefined member": { metadata: { labels: undefined } },
  "non-ASCII text": { metadata: { name: "ü", annotations: { "a/b": "名前 ☃ \u2028" } }, data: { é: "😀" } },
  "managed fields": {
    metadata: {
      name: "a",
      managedFields: [
        { manager: "m", operation: "Update", fieldsType: "FieldsV1", fieldsV1: { "f:data": {} } },
      ],
    },
  },
};

describe("one JSON text of a committed object (storage/object-text.ts)", () => {
  for (const [shape, written] of Object.entries(shapes)) {
    it(`counts the written object's bytes for the limit, and keeps the stored text: ${shape}`, () => {
      const size = writtenBytes(written);
      const s = new MvccStore();
      expect(() => s.create("cm", "k", written, size - 1)).toThrow(ObjectTooLargeError);
      expect([s.revision, s.count("cm"), s.eventsSince(0).length]).toEqual([1, 0, 0]);
      const stored = s.create("cm", "k", written, size);
      expect(committedText(stored)).toEqual({
        text: JSON.stringify(stored),
        bytes: writtenBytes(stored),
      });
      expect(() => s.update("cm", "k", written, undefined, size - 1)).toThrow(ObjectTooLargeError);
      const updated = s.update("cm", "k", written, undefined, size);
      expect(committedText(updated)?.text).toBe(JSON.stringify(updated));
      expect(s.eventsSince(0).map((e) => e.object)).toEqual([stored, updated]);
    });
  }

  it("measures before the key's preconditions, as etcd refuses a large request first", () => {
    const s = new MvccStore();
    const o = { metadata: { name: "a" }, data: { k: "x".repeat(100) } };
    s.create("cm", "a", o);
    expect(() => s.create("cm", "a", o, 50)).toThrow(ObjectTooLargeError);
    expect(() => s.create("cm", "a", o, 500)).toThrow(PreconditionError);
    expect(() => s.update("cm", "a", o, 1, 50)).toThrow(ObjectTooLargeError);
    expect(() => s.update("cm", "a", o, 1, 500)).toThrow(PreconditionError);
    expect(s.revision).toBe(2);
  });

  it("keeps no text for writes that were not measured", () => {
    const s = new MvccStore();
    const stored = s.create("cm", "a", { metadata: { name: "a" } });
    expect(committedText(stored)).toBeUndefined();
    expect(committedText(s.delete("cm", "a"))).toBeUndefined();
  });

  it("keeps the texts of the last commits only, within a byte budget", () => {
    const s = new MvccStore();
    const big = (name: string) => ({ metadata: { name }, data: { a: "x".repeat(KEPT_TEXT_BYTES / 3) } });
    const limit = KEPT_TEXT_BYTES;
    const stored = ["a", "b", "c", "d"].map((n) => s.create("cm", n, big(n), limit));
    // Three texts would pass the budget: the oldest two went, the newest is kept whatever its size.
    expect(stored.map((o) => committedText(o) !== undefined)).toEqual([false, false, true, true]);
    const small = Array.from({ length: KEPT_TEXTS + 100 }, (_, i) =>
      s.create("cm", `s${i}`, { metadata: { name: `s${i}` } }, limit),
    );
    const kept = small.map((o) => committedText(o) !== undefined);
    // The newest KEPT_TEXTS, whatever the order of evictions before.
    expect(kept.indexOf(true)).toBe(100);
    expect(kept.lastIndexOf(false)).toBe(99);
    expect(committedText(small.at(-1))?.text).toBe(JSON.stringify(small.at(-1)));
  });

  it("keeps each store's texts within its own budget: one store's writes do not evict another's", () => {
    const [first, second] = [new MvccStore(), new MvccStore()];
    const kept = first.create("cm", "a", { metadata: { name: "a" } }, KEPT_TEXT_BYTES);
    for (let i = 0; i < KEPT_TEXTS + 10; i++)
      second.create("cm", `s${i}`, { metadata: { name: `s${i}` } }, KEPT_TEXT_BYTES);
    expect(committedText(kept)?.text).toBe(JSON.stringify(kept));
  });
});
