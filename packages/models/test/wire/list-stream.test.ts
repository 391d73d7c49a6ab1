/**
 * ProtobufListDecoder gives what decodeObject gives for the same bytes, however the body is cut
 * into chunks: every upstream fixture, a long list, and damaged lists (where decodeObject fails,
 * the streaming decoder fails too).
 */
import {
  decodeObject,
  encodeObject,
  type ListDecoderOptions,
  ProtobufListDecoder,
  WireError,
  type WireOptions,
} from "@kubesdk/models";
import fc from "fast-check";
import { beforeAll, describe, expect, test } from "vitest";
import { type FixturePair, loadFixturePairs } from "./upstream-fixtures.js";

let pairs: FixturePair[] = [];

beforeAll(async () => {
  pairs = await loadFixturePairs();
}, 120_000);

/** Decodes `bytes` pushed in pieces ending at `cuts` (sorted offsets). */
function streamed(bytes: Uint8Array, cuts: readonly number[], options: ListDecoderOptions = {}): unknown {
  const decoder = new ProtobufListDecoder(options);
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    if (cut < from) continue;
    decoder.push(Buffer.from(bytes.subarray(from, cut)));
    from = cut;
  }
  return decoder.end();
}

type Outcome = { value: unknown } | { error: unknown };

function outcome(run: () => unknown): Outcome {
  try {
    return { value: run() };
  } catch (error) {
    return { error };
  }
}

/** Same value, or both fail with a WireError. */
function expectSame(bytes: Uint8Array, cuts: readonly number[], options: WireOptions = {}): void {
  const whole = outcome(() => decodeObject(bytes, options));
  const pieces = outcome(() => streamed(bytes, cuts, options));
  if ("value" in whole) expect(pieces).toEqual(whole);
  else expect("error" in pieces && pieces.error instanceof WireError).toBe(true);
}

function configMapList(items: number): Uint8Array {
  return encodeObject({
    apiVersion: "v1",
    kind: "ConfigMapList",
    metadata: { resourceVersion: "42", continue: "next-page" },
    items: Array.from({ length: items }, (_, i) => ({
      metadata: { name: `cm-${i}`, namespace: "default", labels: { app: "x", n: String(i) } },
      data: { payload: "é".repeat(i % 300), n: String(i) },
    })),
  });
}

describe("ProtobufListDecoder", () => {
  test("every upstream fixture decodes to decodeObject's result, in one piece and cut at seeded points", () => {
    expect(pairs.length).toBeGreaterThan(150);
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (const pair of pairs) {
      const options = { kind: pair.gvk };
      expect(streamed(pair.pb, [], options), pair.name).toEqual(decodeObject(pair.pb, options));
      const cuts = Array.from({ length: 6 }, () => next() % (pair.pb.length + 1)).sort((a, b) => a - b);
      expect(streamed(pair.pb, cuts, options), pair.name).toEqual(decodeObject(pair.pb, options));
    }
  });

  test("lists of every fixture's kind that has one, cut at seeded points", () => {
    let lists = 0;
    let seed = 11;
    for (const pair of pairs) {
      const object = decodeObject(pair.pb, { kind: pair.gvk }) as Record<string, unknown>;
      const { apiVersion, kind, ...item } = object;
      let bytes: Uint8Array;
      try {
        bytes = encodeObject({
          apiVersion,
          kind: `${kind}List`,
          metadata: { resourceVersion: "7" },
          items: [item, item, item],
        });
      } catch {
        continue; // no list kind, or no protobuf form
      }
      lists++;
      const expected = decodeObject(bytes);
      for (let round = 0; round < 4; round++) {
        const cuts = Array.from({ length: 5 }, () => {
          seed = (seed * 1103515245 + 12345) % 2 ** 31;
          return seed % (bytes.length + 1);
        }).sort((a, b) => a - b);
        expect(streamed(bytes, cuts), `${kind}List`).toEqual(expected);
      }
    }
    expect(lists).toBeGreaterThan(60);
  });

  test("a long list pushed a byte at a time, and in chunks of every size up to 70 bytes", () => {
    const bytes = configMapList(40);
    const expected = decodeObject(bytes);
    expect((expected as { items: unknown[] }).items).toHaveLength(40);
    expect(
      streamed(
        bytes,
        Array.from({ length: bytes.length }, (_, i) => i),
      ),
    ).toEqual(expected);
    for (let size = 2; size <= 70; size++) {
      const cuts = Array.from({ length: Math.floor(bytes.length / size) }, (_, i) => (i + 1) * size);
      expect(streamed(bytes, cuts)).toEqual(expected);
    }
  });

  test("objects that are not lists, and bodies without the magic, come out as decodeObject's", () => {
    const configMap = encodeObject({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" } });
    expect(streamed(configMap, [3, 9])).toEqual(decodeObject(configMap));
    expectSame(Buffer.from('{"kind":"ConfigMapList"}'), [2]);
    expectSame(new Uint8Array(0), []);
  });

  test("damaged lists: truncated, bytes changed or cut out; where decodeObject fails, so does the stream", () => {
    const bytes = configMapList(6);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(bytes.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 3 }),
        fc.nat(bytes.length),
        fc.array(fc.nat(bytes.length), { maxLength: 5 }),
        (changes, keep, cuts) => {
          const damaged = Buffer.from(bytes.subarray(0, keep));
          for (const [at, value] of changes) if (at < damaged.length) damaged[at] = value;
          expectSame(
            damaged,
            [...cuts].sort((a, b) => a - b),
          );
        },
      ),
      { seed: 16, numRuns: 400 },
    );
  });

  test("a length announcing a terabyte costs only the bytes that arrive", () => {
    const varint = (n: number) => {
      const out: number[] = [];
      for (; n >= 128; n = Math.floor(n / 128)) out.push((n % 128) | 128);
      return [...out, n];
    };
    // typeMeta {apiVersion "v1", kind "PodList"}, then raw and its first item, each announcing more
    // than a buffer can hold.
    const typeMeta = [0x0a, 0x02, ...Buffer.from("v1"), 0x12, 0x07, ...Buffer.from("PodList")];
    const header = Buffer.from([
      ...[0x6b, 0x38, 0x73, 0x00],
      ...[0x0a, typeMeta.length, ...typeMeta],
      ...[0x12, ...varint(2 ** 41)],
      ...[0x12, ...varint(2 ** 40)],
    ]);
    const decoder = new ProtobufListDecoder();
    decoder.push(header);
    for (let i = 0; i < 16; i++) decoder.push(Buffer.alloc(64 * 1024, 0x0a));
    expect(() => decoder.end()).toThrow(WireError);
  });

  test("an item's error names the item and the list's kind", () => {
    const bytes = configMapList(3);
    const damaged = Buffer.from(bytes);
    // The tag of the last item's name (ObjectMeta field 1) made wire type 7, which no message has.
    damaged[damaged.indexOf("cm-2") - 2] = 0x0f;
    const whole = outcome(() => decodeObject(damaged));
    const pieces = outcome(() => streamed(damaged, [100]));
    expect("error" in whole && "error" in pieces).toBe(true);
    if ("error" in whole && "error" in pieces) expect(String(pieces.error)).toBe(String(whole.error));
  });

  test("int64 values beyond 2^53 follow the int64 option", () => {
    const bytes = encodeObject({
      apiVersion: "v1",
      kind: "ConfigMapList",
      metadata: { remainingItemCount: "9007199254740993" },
      items: [{ metadata: { name: "a", generation: "9007199254740995" } }],
    });
    expect(streamed(bytes, [20], { int64: "string" })).toEqual(decodeObject(bytes, { int64: "string" }));
    expect(() => streamed(bytes, [20])).toThrow(WireError);
  });

  test("itemType: every item starts with that apiVersion and kind, and is otherwise decodeObject's", () => {
    const bytes = configMapList(12);
    const whole = decodeObject(bytes) as { items: Record<string, unknown>[] };
    const itemType = { apiVersion: "v1", kind: "ConfigMap" };
    for (const cuts of [[], [7, 300, 301, 900]]) {
      const list = streamed(bytes, cuts, { itemType }) as { items: Record<string, unknown>[] };
      expect(list.items).toHaveLength(12);
      list.items.forEach((item, i) => {
        expect(Object.keys(item)).toEqual(["apiVersion", "kind", ...Object.keys(whole.items[i] as object)]);
        expect(item).toEqual({ ...itemType, ...whole.items[i] });
      });
      expect({ ...list, items: [] }).toEqual({ ...whole, items: [] });
    }
    // Not a list: itemType changes nothing.
    const configMap = encodeObject({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" } });
    expect(streamed(configMap, [3], { itemType })).toEqual(decodeObject(configMap));
  });
});
