/** A manager's own Update entry after an update: its tree kept when its set did not change, encoded anew when it did. */
import { schemaFor } from "@kubesdk/models";
import { describe, expect, it } from "vitest";
import { type ManagedFieldsEntry, recordUpdateWalked } from "../src/fieldmanager/managed-fields.js";

const schema = schemaFor({ group: "", version: "v1", kind: "ConfigMap" });
const written = {
  manager: "m",
  operation: "Update",
  apiVersion: "v1",
  time: "2026-12-06T00:00:00Z",
} as const;
const entry = (fieldsV1: Record<string, unknown>): ManagedFieldsEntry => ({
  ...written,
  fieldsType: "FieldsV1",
  fieldsV1,
});
const cm = (data: Record<string, string>) => ({ metadata: { name: "a" }, data });
const update = (fieldsV1: Record<string, unknown>, old: object, next: object) =>
  recordUpdateWalked({
    entries: [entry(fieldsV1)],
    manager: "m",
    apiVersion: "v1",
    subresource: undefined,
    time: "2026-12-07T00:00:00Z",
    old: old as Record<string, unknown>,
    next: next as Record<string, unknown>,
    schema,
    scope: "all",
  });
const only = (entries: ManagedFieldsEntry[]) => {
  expect(entries).toHaveLength(1);
  return entries[0] as ManagedFieldsEntry;
};

describe("a manager's own entry after its update", () => {
  it("keeps its tree when the update changes only fields it owns", () => {
    const tree = { "f:data": { ".": {}, "f:k": {} } };
    const after = only(update(tree, cm({ k: "1" }), cm({ k: "2" })));
    expect(after.fieldsV1).toBe(tree);
    expect(after.time).toBe("2026-12-07T00:00:00Z");
  });

  it("encodes a new tree when the set grows or shrinks, or was not in upstream's encoding", () => {
    const grown = only(update({ "f:data": { ".": {}, "f:k": {} } }, cm({ k: "1" }), cm({ k: "1", j: "2" })));
    expect(JSON.stringify(grown.fieldsV1)).toBe('{"f:data":{".":{},"f:j":{},"f:k":{}}}');
    const stale = { "f:data": { ".": {}, "f:k": {}, "f:gone": {} } };
    const shrunk = only(update(stale, cm({ k: "1" }), cm({ k: "2" })));
    expect(shrunk.fieldsV1).not.toBe(stale);
    expect(JSON.stringify(shrunk.fieldsV1)).toBe('{"f:data":{".":{},"f:k":{}}}');
    const odd = { "f:data": { "f:k": {}, ".": {} } };
    const reencoded = only(update(odd, cm({ k: "1" }), cm({ k: "2" })));
    expect(reencoded.fieldsV1).not.toBe(odd);
    expect(JSON.stringify(reencoded.fieldsV1)).toBe('{"f:data":{".":{},"f:k":{}}}');
  });

  it("keeps the entry's time and tree on an update that changes nothing, and drops an emptied entry", () => {
    const tree = { "f:data": { ".": {}, "f:k": {} } };
    const same = only(update(tree, cm({ k: "1" }), cm({ k: "1" })));
    expect(same.fieldsV1).toBe(tree);
    expect(same.time).toBe("2026-12-06T00:00:00Z");
    expect(update({ "f:spec": {} }, cm({ k: "1" }), cm({ k: "1" }))).toEqual([]);
  });
});
