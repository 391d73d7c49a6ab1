import { schemaFor } from "@kubesdk/models";
import { describe, expect, it } from "vitest";
import { StatusError } from "../src/api/status.js";
import {
  baseEntries,
  type ManagedFieldsEntry,
  managerName,
  recordUpdate,
  sortEntries,
} from "../src/fieldmanager/managed-fields.js";
import { leafFields, PATH_SEP } from "../src/fieldmanager/object-fields.js";

const DEPLOYMENT = schemaFor({ group: "apps", version: "v1", kind: "Deployment" });
const CONFIGMAP = schemaFor({ group: "", version: "v1", kind: "ConfigMap" });
const paths = (m: Map<string, string>) => [...m.keys()].map((k) => k.split(PATH_SEP).join(" "));

const cm = (data: Record<string, string>, managedFields?: unknown) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "c", uid: "u", resourceVersion: "5", ...(managedFields ? { managedFields } : {}) },
  data,
});

function update(
  entries: ManagedFieldsEntry[],
  oldData: Record<string, string> | undefined,
  data: Record<string, string>,
  manager: string,
  time = "2026-01-01T00:00:00Z",
) {
  return recordUpdate({
    entries,
    oldLeaves: oldData ? leafFields(cm(oldData), CONFIGMAP, "all") : new Map(),
    newLeaves: leafFields(cm(data), CONFIGMAP, "all", oldData ? "all" : "no-structs"),
    manager,
    apiVersion: "v1",
    subresource: undefined,
    time,
  });
}

describe("leaf fields", () => {
  it("names leaves by field, skips server-owned metadata and keys map-list items", () => {
    const d = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "d", uid: "u", labels: { a: "1" } },
      spec: { template: { spec: { containers: [{ name: "app", image: "i" }] } } },
      status: { replicas: 1 },
    };
    const main = paths(leafFields(d, DEPLOYMENT, "main", "none"));
    expect(main).toContain("f:metadata f:labels f:a");
    expect(main).toContain('f:spec f:template f:spec f:containers k:{"name":"app"} f:image');
    expect(main.some((p) => p.includes("f:uid") || p === "f:metadata f:name")).toBe(false);
    expect(main.some((p) => p.startsWith("f:status"))).toBe(false);
    expect(paths(leafFields(d, DEPLOYMENT, "status", "none"))).toEqual(["f:status f:replicas"]);
  });
});

describe("managedFields of Update operations", () => {
  it("gives a creator every field it set", () => {
    const entries = update([], undefined, { a: "1" }, "kubectl");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ manager: "kubectl", operation: "Update", apiVersion: "v1" });
    expect(entries[0]?.fieldsV1).toEqual({ "f:data": { ".": {}, "f:a": {} } });
  });

  it("moves a changed field to the writer and drops managers left with nothing", () => {
    const first = update([], undefined, { a: "1" }, "one");
    const second = update(first, { a: "1" }, { a: "2", b: "x" }, "two", "2026-01-02T00:00:00Z");
    expect(second.map((e) => e.manager)).toEqual(["one", "two"]);
    expect(second[1]?.fieldsV1).toEqual({ "f:data": { "f:a": {}, "f:b": {} } });
    const third = update(second, { a: "2", b: "x" }, { a: "2" }, "two", "2026-01-03T00:00:00Z");
    expect(third.find((e) => e.manager === "two")?.fieldsV1).toEqual({ "f:data": { "f:a": {} } });
  });

  it("keeps at most ten Update managers, folding the oldest into ancient-changes", () => {
    let entries: ManagedFieldsEntry[] = [];
    let data: Record<string, string> = {};
    for (let i = 0; i < 12; i++) {
      const next = { ...data, [`k${i}`]: "v" };
      entries = update(
        entries,
        i === 0 ? undefined : data,
        next,
        `m${String(i).padStart(2, "0")}`,
        `2026-01-01T00:00:${String(i).padStart(2, "0")}Z`,
      );
      data = next;
    }
    expect(entries.filter((e) => e.operation === "Update")).toHaveLength(10);
    expect(entries.some((e) => e.manager === "ancient-changes")).toBe(true);
  });

  it("starts from the sent entries, none after a reset, else the stored ones", () => {
    const stored = [
      { manager: "s", operation: "Update", apiVersion: "v1", fieldsType: "FieldsV1", fieldsV1: {} },
    ];
    expect(baseEntries(undefined, stored)).toEqual(stored);
    expect(baseEntries([], stored)).toEqual([]);
    expect(baseEntries([{}], stored)).toEqual([]);
  });

  it("sorts Apply entries before Update ones, then by time and manager", () => {
    const e = (manager: string, operation: "Apply" | "Update", time: string): ManagedFieldsEntry => ({
      manager,
      operation,
      apiVersion: "v1",
      time,
      fieldsType: "FieldsV1",
      fieldsV1: {},
    });
    const sorted = sortEntries([e("b", "Update", "1"), e("a", "Update", "1"), e("z", "Apply", "2")]);
    expect(sorted.map((x) => x.manager)).toEqual(["z", "a", "b"]);
  });
});

describe("manager names", () => {
  it("takes ?fieldManager, else the User-Agent up to its first slash", () => {
    expect(managerName(new URLSearchParams("fieldManager=me"), "kubectl/v1")).toBe("me");
    expect(managerName(new URLSearchParams(), "kubectl/v1.37 (linux)")).toBe("kubectl");
    expect(managerName(new URLSearchParams(), undefined)).toBe("unknown");
  });

  it("rejects a fieldManager that is too long or not printable", () => {
    expect(() => managerName(new URLSearchParams({ fieldManager: "x".repeat(129) }), undefined)).toThrow(
      StatusError,
    );
    expect(() => managerName(new URLSearchParams({ fieldManager: "a\nb" }), undefined)).toThrow(
      /invalid character U\+000A \(at position 1\)/,
    );
  });
});
