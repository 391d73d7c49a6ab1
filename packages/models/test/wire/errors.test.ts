/**
 * Bad input is a WireError with a code naming what was wrong, never a crash or silent garbage.
 */
import { decodeObject, encodeObject, protoMagic, protoTypeFor, WireError } from "@kubesdk/models";
import fc from "fast-check";
import { beforeAll, describe, expect, test } from "vitest";
import { codeOf, errorOf, seal } from "./helpers.js";
import { type FixturePair, loadFixturePairs } from "./upstream-fixtures.js";

let pairs: FixturePair[] = [];
let configMap: FixturePair;

beforeAll(async () => {
  pairs = await loadFixturePairs();
  configMap = pairs.find((p) => p.name === "core.v1.ConfigMap") as FixturePair;
}, 120_000);

describe("decodeObject rejects", () => {
  test("bytes without the magic, naming what it found", () => {
    const json = errorOf(() => decodeObject(Buffer.from('{"kind":"ConfigMap"}')));
    expect(json.code).toBe("PROTOBUF_MAGIC");
    expect(json.message).toContain('7b 22 6b 69 ("{\\"ki")');
    expect(json.message).toContain("looks like JSON");
    expect(codeOf(() => decodeObject(new Uint8Array(0)))).toBe("PROTOBUF_MAGIC");
    expect(codeOf(() => decodeObject(Uint8Array.of(0x6b, 0x38, 0x73)))).toBe("PROTOBUF_MAGIC");
    expect(codeOf(() => decodeObject(Uint8Array.of(0x6b, 0x38, 0x73, 0x01, 0x0a, 0x00)))).toBe(
      "PROTOBUF_MAGIC",
    );
  });

  test("a truncated envelope", () => {
    expect(codeOf(() => decodeObject(configMap.pb.subarray(0, 40)))).toBe("PROTOBUF_ENVELOPE");
    expect(codeOf(() => decodeObject(configMap.pb.subarray(0, configMap.pb.length - 3)))).toBe(
      "PROTOBUF_ENVELOPE",
    );
  });

  test("an envelope with an invalid wire type or a content encoding it cannot read", () => {
    expect(codeOf(() => decodeObject(Buffer.concat([protoMagic, Uint8Array.of(0x0f, 0x01)])))).toBe(
      "PROTOBUF_ENVELOPE",
    );
    const gzip = seal({ raw: Uint8Array.of(0x1f, 0x8b), contentEncoding: "gzip" });
    expect(errorOf(() => decodeObject(gzip)).message).toContain('"gzip"');
  });

  test("a raw message that is truncated inside a field", () => {
    const raw = protoTypeFor({ group: "", version: "v1", kind: "ConfigMap" })
      .encode({ metadata: { name: "truncated", namespace: "ns" }, data: { key: "value" } })
      .finish();
    const error = errorOf(() => decodeObject(seal({ raw: raw.subarray(0, raw.length - 2) })));
    expect(error.code).toBe("PROTOBUF_MESSAGE");
    expect(error.message).toContain('"ConfigMap" in "v1"');
  });

  test("a raw message whose field has the wrong wire type, naming the field", () => {
    // ConfigMap.immutable (bool, varint) sent length-delimited: protobufjs alone would read it as
    // `immutable: false`; Go rejects it, and so does the codec.
    const error = errorOf(() => decodeObject(seal({ raw: Uint8Array.of(0x22, 0x00) })));
    expect(error.code).toBe("PROTOBUF_MESSAGE");
    expect(error.field).toBe("immutable");
    expect(error.reason).toContain("wrong wire type 2 (expected 0)");
  });

  test("a nested message that claims more bytes than its parent holds", () => {
    // metadata (2 bytes) holds a name that says it is 5 bytes long: it would spill into the parent.
    const raw = Uint8Array.of(0x0a, 0x02, 0x0a, 0x05, 0x20, 0x01, 0x20, 0x01, 0x20);
    const error = errorOf(() => decodeObject(seal({ raw })));
    expect(error.code).toBe("PROTOBUF_MESSAGE");
    expect(error.field).toBe("metadata.name");
  });

  test("a field numbered 0, in a message as in a nested one", () => {
    const top = errorOf(() => decodeObject(seal({ raw: Uint8Array.of(0x02, 0x00) })));
    expect(top.code).toBe("PROTOBUF_MESSAGE");
    expect(top.reason).toContain("illegal tag 0");
    const nested = errorOf(() => decodeObject(seal({ raw: Uint8Array.of(0x0a, 0x02, 0x00, 0x00) })));
    expect(nested.reason).toContain("illegal tag 0");
    expect(nested.field).toBe("metadata");
  });

  test("lengths of one byte and of two read alike (127 and 128 bytes), and past the end is an error", () => {
    const type = protoTypeFor({ group: "", version: "v1", kind: "ConfigMap" });
    for (const n of [0, 1, 127, 128, 300]) {
      const name = "n".repeat(n);
      const value = "v".repeat(n);
      const raw = type.encode({ metadata: { name }, data: { [name]: value } }).finish();
      const decoded = decodeObject(seal({ raw }));
      expect(decoded.metadata?.name ?? "").toBe(name);
      expect(decoded.data).toEqual({ [name]: value });
    }
    // A two-byte length (200) inside a 4-byte metadata message.
    const error = errorOf(() =>
      decodeObject(seal({ raw: Uint8Array.of(0x0a, 0x04, 0x0a, 0xc8, 0x01, 0x61) })),
    );
    expect(error.field).toBe("metadata.name");
    expect(error.reason).toContain("runs past the end of its message");
  });

  test("kinds without a protobuf message, naming them", () => {
    const widget = errorOf(() => decodeObject(seal({ apiVersion: "example.com/v1", kind: "Widget" })));
    expect(widget.code).toBe("PROTOBUF_UNKNOWN_KIND");
    expect(widget.message).toContain('"Widget" in "example.com/v1"');
    expect(codeOf(() => decodeObject(seal({ apiVersion: "meta.k8s.io/v1", kind: "Table" })))).toBe(
      "PROTOBUF_UNKNOWN_KIND",
    );
    expect(codeOf(() => decodeObject(seal({ apiVersion: "", kind: "" })))).toBe("PROTOBUF_UNKNOWN_KIND");
  });

  test("embedded JSON that does not parse, naming the field", () => {
    const raw = protoTypeFor({ group: "", version: "v1", kind: "ConfigMap" })
      .encode({
        metadata: { managedFields: [{ manager: "m", fieldsV1: { Raw: Buffer.from("{not json") } }] },
      })
      .finish();
    const error = errorOf(() => decodeObject(seal({ raw })));
    expect(error.code).toBe("PROTOBUF_VALUE");
    expect(error.field).toBe("metadata.managedFields[0].fieldsV1");
  });

  test("damaged fixtures: a WireError or a decoded object, never another exception", () => {
    fc.assert(
      fc.property(
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 0, max: 255 }),
        fc.boolean(),
        (which, where, byte, truncate) => {
          const pair = pairs[which % pairs.length] as FixturePair;
          const bytes = Buffer.from(pair.pb);
          const at = 4 + (where % (bytes.length - 4));
          if (!truncate) bytes[at] = byte;
          const damaged = truncate ? bytes.subarray(0, at) : bytes;
          try {
            decodeObject(damaged, { kind: pair.gvk });
          } catch (error) {
            if (!(error instanceof WireError)) throw error;
          }
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe("encodeObject rejects", () => {
  test("kinds without a protobuf message", () => {
    expect(codeOf(() => encodeObject({ apiVersion: "example.com/v1", kind: "Widget" }))).toBe(
      "PROTOBUF_UNKNOWN_KIND",
    );
    expect(codeOf(() => encodeObject({ apiVersion: "meta.k8s.io/v1", kind: "Table", rows: [] }))).toBe(
      "PROTOBUF_UNKNOWN_KIND",
    );
  });

  test("an object without apiVersion/kind", () => {
    expect(codeOf(() => encodeObject({ metadata: { name: "x" } }))).toBe("PROTOBUF_NO_KIND");
    expect(codeOf(() => encodeObject({ apiVersion: "v1", metadata: { name: "x" } }))).toBe(
      "PROTOBUF_NO_KIND",
    );
  });

  test.each([
    [
      "a string for an int32",
      { spec: { replicas: "3" } },
      "spec.replicas",
      /integer \(int32\), got string "3"/,
    ],
    ["an int32 out of range", { spec: { replicas: 2 ** 31 } }, "spec.replicas", /integer/],
    [
      "a bad time",
      { metadata: { creationTimestamp: "yesterday" } },
      "metadata.creationTimestamp",
      /RFC 3339/,
    ],
    [
      "an impossible date",
      { metadata: { creationTimestamp: "2024-02-30T00:00:00Z" } },
      "metadata.creationTimestamp",
      /not a valid time/,
    ],
    [
      "an object for a string map value",
      { metadata: { labels: { a: { b: 1 } } } },
      "metadata.labels[a]",
      /string/,
    ],
    [
      "an object for a list",
      { spec: { template: { spec: { containers: {} } } } },
      "spec.template.spec.containers",
      /array/,
    ],
    [
      "a bad IntOrString",
      { spec: { strategy: { rollingUpdate: { maxSurge: true } } } },
      "spec.strategy.rollingUpdate.maxSurge",
      /integer or a string/,
    ],
    [
      "a bad quantity",
      {
        spec: { template: { spec: { containers: [{ name: "c", resources: { limits: { cpu: "lots" } } }] } } },
      },
      "spec.template.spec.containers[0].resources.limits[cpu]",
      /quantity/,
    ],
    ["a scalar for a message", { spec: "nope" }, "spec", /expected an object, got string/],
  ])("%s, naming the field", (_, body, field, reason) => {
    const error = errorOf(() => encodeObject({ apiVersion: "apps/v1", kind: "Deployment", ...body }));
    expect(error.code).toBe("PROTOBUF_VALUE");
    expect(error.field).toBe(field);
    expect(error.reason).toMatch(reason);
  });

  test("bytes that are not padded standard base64", () => {
    const error = errorOf(() =>
      encodeObject({ apiVersion: "v1", kind: "ConfigMap", binaryData: { blob: "not base64!" } }),
    );
    expect(error.code).toBe("PROTOBUF_VALUE");
    expect(error.field).toBe("binaryData[blob]");
  });
});
