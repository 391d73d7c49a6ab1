/**
 * The edges of the codec against upstream Go (go/exact.go): int64 beyond ±2^53, invalid
 * UTF-8, message fields repeated on the wire, timestamps Go normalises or refuses, quantities,
 * and JSON Go accepts or rejects. Every expected value is what Go wrote or how Go failed.
 */
import { readFileSync } from "node:fs";
import { decodeObject, encodeObject, WireError } from "@kubesdk/models";
import { describe, expect, test } from "vitest";
import { bigintsAsStrings, holdsBigint, parseExactJson } from "./exact-json.js";

interface Vectors {
  pbCases: { name: string; pb: string; json?: unknown; error?: string }[];
  jsonCases: { name: string; text: string; pb?: string; error?: string }[];
}

const text = readFileSync(new URL("./go/vectors.json", import.meta.url), "utf8");
const vectors = parseExactJson(text) as Vectors;

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WireError);
    return (error as WireError).code;
  }
  throw new Error("expected a WireError");
}

describe("bytes written or crafted in Go decode to Go's JSON", () => {
  test.each(vectors.pbCases.map((c) => [c.name, c] as const))("%s", (_, c) => {
    const buffer = Buffer.from(c.pb, "base64");
    const plain = new Uint8Array(buffer); // not a Buffer: must read the same
    if (c.error !== undefined) {
      expect(codeOf(() => decodeObject(buffer))).toMatch(/^PROTOBUF_/);
      return;
    }
    if (holdsBigint(c.json)) {
      expect(codeOf(() => decodeObject(buffer))).toBe("PROTOBUF_INT64");
      expect(decodeObject(plain, { int64: "string" })).toStrictEqual(bigintsAsStrings(c.json));
    }
    expect(decodeObject(buffer, { int64: "bigint" })).toStrictEqual(c.json);
    expect(decodeObject(plain, { int64: "bigint" })).toStrictEqual(c.json);
  });
});

describe("JSON Go accepts encodes to Go's bytes; JSON Go rejects is rejected", () => {
  test.each(vectors.jsonCases.map((c) => [c.name, c] as const))("%s", (_, c) => {
    const object = parseExactJson(c.text) as Record<string, unknown>;
    if (c.error !== undefined) {
      expect(codeOf(() => encodeObject(object))).toMatch(/^PROTOBUF_/);
      return;
    }
    expect(Buffer.from(encodeObject(object)).toString("base64")).toBe(c.pb);
  });
});

describe("int64 policy", () => {
  const max = vectors.jsonCases.find((c) => c.name === "int64-max");
  const configMap = (generation: unknown) => ({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "big", generation },
  });

  test("a bigint or a decimal string encodes exactly; a number that is not a safe integer is refused", () => {
    expect(Buffer.from(encodeObject(configMap(2n ** 63n - 1n))).toString("base64")).toBe(max?.pb);
    expect(Buffer.from(encodeObject(configMap("9223372036854775807"))).toString("base64")).toBe(max?.pb);
    // 9223372036854775807 as a number is 2^63: Go would read the wrapped bytes as −2^63.
    for (const bad of [
      Number("9223372036854775807"),
      2 ** 53,
      1e300,
      1.5,
      Number.NaN,
      2n ** 63n,
      "1.5",
      "0x10",
      true,
    ]) {
      expect(codeOf(() => encodeObject(configMap(bad)))).toBe("PROTOBUF_INT64");
    }
    // JSON.parse of 18446744073709551616: a number, refused rather than written as 0.
    expect(codeOf(() => encodeObject(configMap(JSON.parse("18446744073709551616"))))).toBe("PROTOBUF_INT64");
    expect(decodeObject(encodeObject(configMap(2 ** 53 - 1)))).toMatchObject(configMap(2 ** 53 - 1));
    // A bigint where an int32 belongs is a typed error too, not a TypeError.
    const deployment = { apiVersion: "apps/v1", kind: "Deployment", spec: { replicas: 3n } };
    expect(codeOf(() => encodeObject(deployment))).toBe("PROTOBUF_VALUE");
  });
});
