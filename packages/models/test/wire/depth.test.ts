/**
 * Nesting limits: objects embedded in objects (a ControllerRevision's data holding another
 * ControllerRevision, ...) and deeply nested JSON end in a typed error, never in a stack overflow.
 */
import { decodeObject, encodeObject, protoType } from "@kubesdk/models";
import { describe, expect, test } from "vitest";
import { errorOf, seal } from "./helpers.js";

const revisionType = protoType("k8s.io.api.apps.v1.ControllerRevision");

/** A ControllerRevision whose data holds one `levels` deep, the innermost holding nothing. */
function nestedRevisions(levels: number): Buffer {
  let bytes = seal({ apiVersion: "apps/v1", kind: "ControllerRevision", raw: new Uint8Array(0) });
  for (let level = 1; level < levels; level++) {
    const raw = revisionType
      .encode({ metadata: { name: `r${level}` }, data: { raw: bytes }, revision: level })
      .finish();
    bytes = seal({ apiVersion: "apps/v1", kind: "ControllerRevision", raw });
  }
  return bytes;
}

function depthOf(object: Record<string, unknown>): number {
  let depth = 0;
  for (
    let at: unknown = object;
    typeof at === "object" && at !== null;
    at = (at as { data?: unknown }).data
  ) {
    depth++;
  }
  return depth;
}

describe("embedded objects", () => {
  test("a hundred levels decode in full", () => {
    const decoded = decodeObject(nestedRevisions(100));
    expect(decoded).toMatchObject({ kind: "ControllerRevision", metadata: { name: "r99" }, revision: 99 });
    expect(depthOf(decoded)).toBe(100);
  });

  test.each([1_000, 3_000])("%i levels are a typed error, not a stack overflow", (levels) => {
    const bytes = nestedRevisions(levels);
    expect(bytes.length).toBeGreaterThan(50_000);
    const error = errorOf(() => decodeObject(bytes));
    expect(error.code).toBe("PROTOBUF_DEPTH");
  });
});

describe("deeply nested JSON", () => {
  function nested(levels: number, wrap: (inner: unknown) => unknown, innermost: unknown): unknown {
    let value = innermost;
    for (let i = 0; i < levels; i++) value = wrap(value);
    return value;
  }

  test("embedded JSON (a RawExtension) nested past the stack is a typed error", () => {
    const data = nested(200_000, (inner) => ({ d: inner }), 1);
    const error = errorOf(() => encodeObject({ apiVersion: "apps/v1", kind: "ControllerRevision", data }));
    expect(error.code).toBe("PROTOBUF_DEPTH");
  });

  test("typed fields nested past the limit are a typed error", () => {
    const schema = nested(3_000, (inner) => ({ type: "object", properties: { p: inner } }), {
      type: "string",
    });
    const crd = {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      spec: { versions: [{ name: "v1", schema: { openAPIV3Schema: schema } }] },
    };
    const error = errorOf(() => encodeObject(crd));
    expect(error.code).toBe("PROTOBUF_DEPTH");
    expect(error.field).toMatch(/^spec\.versions\[0\]\.schema\.openAPIV3Schema\.properties\[p\]/);
  });
});
