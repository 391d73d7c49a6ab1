import { encodeObject } from "@kubesdk/models";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { earlyProtobufContinueToken } from "../src/io/list-continue-protobuf.js";

const token = fc.option(fc.string({ maxLength: 300 }), { nil: undefined });

function podList(cont: string | undefined, items: number): Uint8Array {
  return encodeObject({
    apiVersion: "v1",
    kind: "PodList",
    metadata: {
      resourceVersion: "7",
      ...(cont !== undefined ? { continue: cont } : {}),
      remainingItemCount: 3,
    },
    items: Array.from({ length: items }, (_, i) => ({ metadata: { name: `p${i}`, namespace: "a" } })),
  });
}

describe("earlyProtobufContinueToken", () => {
  it("reads the continue token of an encoded list", () => {
    fc.assert(
      fc.property(token, fc.nat(3), (cont, items) => {
        const expected = cont !== undefined && cont !== "" ? cont : undefined;
        expect(earlyProtobufContinueToken(podList(cont, items))).toBe(expected);
      }),
      { numRuns: 200 },
    );
  });

  it("gives up on bodies that are no protobuf list or are cut short", () => {
    const whole = podList("c1", 2);
    expect(earlyProtobufContinueToken(whole)).toBe("c1");
    // Cut inside the list's message (the envelope's trailing fields are the last few bytes).
    for (let cut = 0; cut < whole.length - 8; cut++)
      expect(earlyProtobufContinueToken(whole.subarray(0, cut))).toBeUndefined();
    const enc = new TextEncoder();
    for (const body of ['{"metadata":{"continue":"c1"}}', "k8s", "k8s\0\xff\xff\xff\xff\xff\xff"])
      expect(earlyProtobufContinueToken(enc.encode(body))).toBeUndefined();
  });
});
