import { describe, expect, it } from "vitest";
import { useNamespaceSuite } from "../support/namespace-suite.js";
import type { CallResult, TestTarget } from "../support/target.js";

// The reference server answers a create or update with the JSON text its store made of the stamped
// object (storage/object-text.ts); a read encodes the stored object afresh. Both must be the same bytes.
let t: TestTarget;
let ns: string;

useNamespaceSuite("write-bytes", (target, name) => {
  t = target;
  ns = name;
});

const path = (name = "") => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ""}`;

/** The body as sent, and its Content-Length when the server gave one. */
function sent(res: CallResult): { text: string; length: number | undefined } {
  const length = res.headers["content-length"];
  return { text: res.text, length: length === undefined ? undefined : Number(length) };
}

describe("a write's response", () => {
  it("is the same JSON text as a read of the object it stored, non-ASCII text included", async () => {
    const name = "bytes";
    const created = await t.call("POST", path(), {
      body: {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name, labels: { app: "bytes" }, annotations: { note: "名前 ☃ ü \u2028 😀" } },
        data: { sharp: "ß".repeat(40), plain: "x" },
      },
    });
    expect(created.status).toBe(201);
    const afterCreate = await t.call("GET", path(name));
    expect(sent(created).text).toBe(afterCreate.text);
    const { length } = sent(created);
    if (length !== undefined) expect(length).toBe(Buffer.byteLength(created.text));

    const updated = await t.call("PUT", path(name), {
      body: { ...created.json, data: { sharp: "ü", other: "☃" } },
    });
    expect(updated.status).toBe(200);
    expect(updated.json.metadata.resourceVersion).not.toBe(created.json.metadata.resourceVersion);
    const afterUpdate = await t.call("GET", path(name));
    expect(sent(updated).text).toBe(afterUpdate.text);
    const updatedLength = sent(updated).length;
    if (updatedLength !== undefined) expect(updatedLength).toBe(Buffer.byteLength(updated.text));
  });

  it("stores an object of nearly a MiB: the limit counts the object as written", async () => {
    const res = await t.call("POST", path(), {
      body: {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "near-limit" },
        data: { a: "x".repeat(1_000_000) },
      },
    });
    expect(res.status).toBe(201);
    expect(Buffer.byteLength(res.text)).toBeGreaterThan(1_000_000);
  });
});
