/**
 * JSON patch as kube-apiserver applies it (Go's evanphx/json-patch), where that is looser than
 * RFC 6902: a replace of a missing member adds it, a copy from a missing member copies a null, a
 * pointer's first segment is dropped even when it is not empty, negative indices count from the end.
 * And what still fails does so with a 422 and changes nothing. Both targets.
 */
import { describe, expect, it } from "vitest";
import { useNamespaceSuite } from "../support/namespace-suite.js";
import type { TestTarget } from "../support/target.js";

let t: TestTarget;
let ns: string;
useNamespaceSuite("json-patch-go", (target, name) => {
  t = target;
  ns = name;
});

interface Row {
  readonly name: string;
  readonly patch: object[];
  /** The data and finalizers afterwards; undefined: a 422 that changes nothing. */
  readonly data?: Record<string, string>;
  readonly finalizers?: string[];
}

const START = { data: { a: "1" }, finalizers: ["x/a", "x/b", "x/c"] };

const ROWS: Row[] = [
  {
    name: "replace of a missing member adds it",
    patch: [{ op: "replace", path: "/data/b", value: "2" }],
    data: { a: "1", b: "2" },
  },
  {
    name: "copy from a missing member copies a null",
    patch: [{ op: "copy", from: "/data/zz", path: "/data/b" }],
    data: { a: "1", b: "" },
  },
  {
    name: "the first segment of a pointer is dropped",
    patch: [{ op: "add", path: "zz/data/b", value: "2" }],
    data: { a: "1", b: "2" },
  },
  {
    name: "add at -1 appends",
    patch: [{ op: "add", path: "/metadata/finalizers/-1", value: "y/1" }],
    finalizers: ["x/a", "x/b", "x/c", "y/1"],
  },
  {
    name: "add at -2 inserts before the last",
    patch: [{ op: "add", path: "/metadata/finalizers/-2", value: "y/2" }],
    finalizers: ["x/a", "x/b", "y/2", "x/c"],
  },
  {
    name: "remove at -1 removes the last",
    patch: [{ op: "remove", path: "/metadata/finalizers/-1" }],
    finalizers: ["x/a", "x/b"],
  },
  {
    name: "replace at -1 replaces the last",
    patch: [{ op: "replace", path: "/metadata/finalizers/-1", value: "y/3" }],
    finalizers: ["x/a", "x/b", "y/3"],
  },
  {
    name: "test at -1 reads the last",
    patch: [
      { op: "test", path: "/metadata/finalizers/-1", value: "x/c" },
      { op: "add", path: "/data/t", value: "ok" },
    ],
    data: { a: "1", t: "ok" },
  },
  {
    name: "an index before the start fails",
    patch: [{ op: "add", path: "/metadata/finalizers/-9", value: "y/4" }],
  },
  { name: "a pointer without a slash fails", patch: [{ op: "add", path: "x", value: "y" }] },
  { name: "a copy from a missing parent fails", patch: [{ op: "copy", from: "/nope/zz", path: "/data/b" }] },
  { name: "a move from a missing member fails", patch: [{ op: "move", from: "/data/zz", path: "/data/b" }] },
  { name: "a remove of a missing member fails", patch: [{ op: "remove", path: "/data/zz" }] },
  {
    name: "a failed test fails the whole patch",
    patch: [
      { op: "add", path: "/data/b", value: "2" },
      { op: "test", path: "/data/a", value: "9" },
    ],
  },
  { name: "an add below a string fails", patch: [{ op: "add", path: "/data/a/b", value: "x" }] },
];

describe("JSON patch as Go's library applies it", () => {
  it.each(ROWS)("$name", async (row) => {
    const name = `r-${ROWS.indexOf(row)}`;
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    const created = await t.call("POST", path, {
      body: { metadata: { name, finalizers: START.finalizers }, data: START.data },
    });
    expect(created.status, created.text).toBe(201);
    const res = await t.call("PATCH", `${path}/${name}`, {
      body: row.patch,
      contentType: "application/json-patch+json",
    });
    const failing = row.data === undefined && row.finalizers === undefined;
    expect(res.status, res.text).toBe(failing ? 422 : 200);
    if (failing) expect(res.json.reason).toBe("Invalid");
    const got = await t.call("GET", `${path}/${name}`);
    expect(got.json.data).toEqual(row.data ?? START.data);
    expect(got.json.metadata.finalizers).toEqual(row.finalizers ?? START.finalizers);
    // Let the namespace's deletion go through.
    const cleared = await t.call("PATCH", `${path}/${name}`, {
      body: { metadata: { finalizers: null } },
      contentType: "application/merge-patch+json",
    });
    expect(cleared.status, cleared.text).toBe(200);
  });
});
