import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { earlyContinueToken } from "../src/io/list-continue.js";

const enc = new TextEncoder();
const json = fc.jsonValue({ maxDepth: 3 });
const token = fc.option(fc.string({ unit: "binary", maxLength: 30 }), { nil: undefined });

describe("earlyContinueToken", () => {
  it("reads the decoded list's continue token when metadata comes before items, and nothing otherwise", () => {
    fc.assert(
      fc.property(
        json,
        json,
        token,
        fc.boolean(),
        fc.boolean(),
        (kind, extra, cont, metadataFirst, spaced) => {
          const metadata = { resourceVersion: "5", ...(cont !== undefined ? { continue: cont } : {}), extra };
          const items = [{ metadata: { name: "a" } }];
          const list = metadataFirst ? { kind, metadata, items } : { kind, items, metadata };
          const text = spaced ? JSON.stringify(list, null, 2) : JSON.stringify(list);
          const expected = metadataFirst && cont !== undefined && cont !== "" ? cont : undefined;
          expect(earlyContinueToken(enc.encode(text))).toBe(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("gives up on bodies that are no JSON object or are cut before the metadata ends", () => {
    const whole = enc.encode('{"kind":"List","metadata":{"continue":"c1"},"items":[]}');
    expect(earlyContinueToken(whole)).toBe("c1");
    const metadataEnd = whole.indexOf(0x7d) + 1;
    for (let cut = 0; cut < metadataEnd; cut++)
      expect(earlyContinueToken(whole.subarray(0, cut))).toBeUndefined();
    expect(earlyContinueToken(whole.subarray(0, metadataEnd))).toBe("c1");
    for (const body of [
      "[]",
      "null",
      '{"metadata":{"continue":"c1"',
      '{"a":1 "metadata":{}}',
      '{"metadata":{"continue":5}}',
    ])
      expect(earlyContinueToken(enc.encode(body))).toBeUndefined();
  });
});
