import { beforeAll, describe, expect, it } from "vitest";
import { namespacedSuite } from "./support.js";

const suite = namespacedSuite("client-repr");

beforeAll(async () => {
  for (const name of ["t-1", "t-2", "t-3"]) {
    await suite.kube
      .resource("v1", "ConfigMap")
      .create({ metadata: { name, labels: { set: "t" } }, data: { big: "x".repeat(1000) } });
  }
});

describe("Table", () => {
  it("lists rows with the server's columns and each row's metadata", async () => {
    const table = await suite.kube.resource("v1", "ConfigMap").asTable().list({ labelSelector: "set=t" });
    expect(table).toMatchObject({ kind: "Table", apiVersion: "meta.k8s.io/v1" });
    expect(table.columnDefinitions[0]).toMatchObject({ name: "Name", type: "string", format: "name" });
    expect(table.rows.map((r) => r.cells[0])).toEqual(["t-1", "t-2", "t-3"]);
    // includeObject defaults to Metadata: each row carries a PartialObjectMetadata.
    expect(table.rows[0]?.object).toMatchObject({ kind: "PartialObjectMetadata", metadata: { name: "t-1" } });
  });

  it("gets one row, and leaves the object out with includeObject=None", async () => {
    const table = await suite.kube.resource("v1", "ConfigMap").asTable({ includeObject: "None" }).get("t-2");
    expect(table.rows).toHaveLength(1);
    expect(table.rows[0]?.cells[0]).toBe("t-2");
    expect(table.rows[0]?.object).toBeNull();
  });

  it("pages with limit and continue", async () => {
    const tables = suite.kube.resource("v1", "ConfigMap").asTable();
    const first = await tables.list({ labelSelector: "set=t", limit: 2 });
    expect(first.rows).toHaveLength(2);
    const rest = await tables.list({
      labelSelector: "set=t",
      limit: 2,
      continue: first.metadata?.continue as string,
    });
    expect(rest.rows.map((r) => r.cells[0])).toEqual(["t-3"]);
  });
});

describe("metadata only", () => {
  it("gets and lists PartialObjectMetadata without the objects' data", async () => {
    const metadata = suite.kube.resource("v1", "ConfigMap").metadataOnly();
    const one = await metadata.get("t-1");
    expect(one).toMatchObject({
      kind: "PartialObjectMetadata",
      apiVersion: "meta.k8s.io/v1",
      metadata: { name: "t-1" },
    });
    expect(one).not.toHaveProperty("data");
    const list = await metadata.list({ labelSelector: "set=t" });
    expect(list.kind).toBe("PartialObjectMetadataList");
    expect(list.items.map((i) => i.metadata?.labels)).toEqual([{ set: "t" }, { set: "t" }, { set: "t" }]);
    expect(list.items.every((i) => !("data" in i))).toBe(true);
  });
});
