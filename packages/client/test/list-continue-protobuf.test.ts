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

  it("reads the token from a body's first bytes once they hold the whole ListMeta, and gives up before", () => {
    const whole = podList("c1", 2);
    expect(earlyProtobufContinueToken(whole)).toBe("c1");
    const found = Array.from({ length: whole.length + 1 }, (_, cut) =>
      earlyProtobufContinueToken(whole.subarray(0, cut)),
    );
    const first = found.indexOf("c1");
    const bytes = Buffer.from(whole);
    // Not before the token's last byte; at the latest where the first item begins; then for every longer cut.
    expect(first).toBeGreaterThan(bytes.indexOf("c1") + 1);
    expect(first).toBeLessThanOrEqual(bytes.indexOf("p0"));
    expect(found.slice(0, first).every((t) => t === undefined)).toBe(true);
    expect(found.slice(first).every((t) => t === "c1")).toBe(true);
  });

  it("gives up on bodies that are no protobuf list", () => {
    const enc = new TextEncoder();
    for (const body of ['{"metadata":{"continue":"c1"}}', "k8s", "k8s\0\xff\xff\xff\xff\xff\xff"])
      expect(earlyProtobufContinueToken(enc.encode(body))).toBeUndefined();
  });
});
