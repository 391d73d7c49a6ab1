import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findDuplicateFields } from "../src/http/duplicate-fields.js";
import { repeatsNoKey } from "../src/http/repeated-keys.js";

/** JSON texts with repeated keys, escapes, colons in strings and blanks around colons. */
const keyText = fc.constantFrom('"a"', '"b"', '":a"', '"a:"', '"\\u0061"', '"a\\""', '"\\\\"', '""');
const scalarText = fc.constantFrom("1", "-0", "true", "null", '":x"', '"a\\":b"', '"\\\\"', '" :"', '"x"');
const blank = fc.constantFrom("", " ", "\n", "\t ");
const jsonText: fc.Arbitrary<string> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small" }, scalarText, tie("object"), tie("array")),
  array: fc.array(tie("value"), { maxLength: 3 }).map((xs) => `[${xs.join(",")}]`),
  object: fc
    .array(fc.tuple(keyText, blank, blank, tie("value")), { maxLength: 4 })
    .map((ms) => `{${ms.map(([k, b1, b2, v]) => `${k}${b1}:${b2}${v}`).join(",")}}`),
})).object as fc.Arbitrary<string>;

describe("repeatsNoKey, the quick check before the duplicate-key scan", () => {
  it("never claims a text with a repeated key repeats none", () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        const parsed: unknown = JSON.parse(text);
        if (repeatsNoKey(text, parsed)) expect(findDuplicateFields(text)).toEqual([]);
      }),
      { numRuns: 3000 },
    );
  });

  it("recognises ordinary bodies without repeated keys, and refuses the cases it cannot prove", () => {
    const body = JSON.stringify({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "a", labels: { x: "1", y: "2" } },
      data: { a: "1", b: "2:" },
      list: [{ a: 1 }, { a: 2 }],
    });
    expect(repeatsNoKey(body, JSON.parse(body))).toBe(true);
    for (const text of ['{"a":1,"a":2}', '{"a" :1}', '{"a\\u0062":1}', '{"a":{"b":1,"b":2}}', '{"a":":"}'])
      expect(repeatsNoKey(text, JSON.parse(text))).toBe(false);
  });
});
