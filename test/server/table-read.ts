/**
 * Helpers of the Table suites (tables.test.ts, tables-more.test.ts): create an object, write its
 * status, and read it back as a Table with the time-dependent cells replaced by "AGE".
 */
import { afterAll, beforeAll, expect } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

export const TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";

/** Columns whose cells are "time since" a timestamp the test sets to now: any number of seconds. */
const TIME_COLUMNS = new Set(["Age", "Last Seen", "First Seen", "TimeAdded"]);

export interface ReadTable {
  /** [name, type, priority] of each column (descriptions are each server's own words). */
  readonly cols: [string, string, number][];
  readonly cells: unknown[];
  readonly conditions: unknown;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes.
  readonly object: any;
}

/** Reads one object as a Table; cells of the time columns must read "<n>s" and become "AGE". */
export async function readTable(t: TestTarget, path: string): Promise<Omit<ReadTable, "object">> {
  const res = await t.call("GET", path, { accept: TABLE });
  expect(res.status, res.text).toBe(200);
  const defs = res.json.columnDefinitions as { name: string; type: string; priority: number }[];
  const [row] = res.json.rows;
  defs.forEach((c, i) => {
    if (!TIME_COLUMNS.has(c.name)) return;
    expect(row.cells[i], c.name).toMatch(/^\d+s$/);
    row.cells[i] = "AGE";
  });
  return {
    cols: defs.map((c) => [c.name, c.type, c.priority]),
    cells: row.cells,
    conditions: row.conditions,
  };
}

/** Writes `status` through the status subresource, again on a conflict (a controller may write too). */
export async function putStatus(t: TestTarget, path: string, status: Record<string, unknown>): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = await t.call("GET", path);
    expect(current.status, current.text).toBe(200);
    const put = await t.call("PUT", `${path}/status`, { body: { ...current.json, status } });
    if (put.status === 409) continue;
    expect(put.status, put.text).toBe(200);
    return;
  }
  throw new Error(`status of ${path} kept conflicting`);
}

/** Creates the object, writes its status if given, and reads it back as a Table. */
export async function tableOf(
  t: TestTarget,
  collection: string,
  body: Record<string, unknown>,
  status?: Record<string, unknown>,
): Promise<ReadTable> {
  const created = await t.call("POST", collection, { body });
  expect(created.status, created.text).toBe(201);
  const path = `${collection}/${created.json.metadata.name}`;
  if (status) await putStatus(t, path, status);
  return { ...(await readTable(t, path)), object: created.json };
}

/** Now, to the second, as the API writes timestamps. */
export const nowSeconds = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, "Z");

export interface TableSuite {
  /** Set in beforeAll: the target and a namespace of the suite's own. */
  t: TestTarget;
  ns: string;
  /** tableOf on this suite's target. */
  table(
    collection: string,
    body: Record<string, unknown>,
    status?: Record<string, unknown>,
  ): Promise<ReadTable>;
  /** A unique name for a cluster-scoped object; the object is deleted after the suite. */
  clusterName(collection: string, prefix: string): string;
  /** Deletes `path` after the suite. */
  deleteAfter(path: string): void;
}

/** Registers the hooks of a Table suite: a target (no controllers), a namespace, cleanup at the end. */
export function useTableSuite(prefix: string): TableSuite {
  const cleanup: string[] = [];
  const suite: TableSuite = {
    t: undefined as unknown as TestTarget, // set in beforeAll
    ns: "",
    table: (collection, body, status) => tableOf(suite.t, collection, body, status),
    clusterName(collection, namePrefix) {
      const name = uniqueName(namePrefix);
      cleanup.push(`${collection}/${name}`);
      return name;
    },
    deleteAfter: (path) => {
      cleanup.push(path);
    },
  };
  beforeAll(async () => {
    suite.t = await startTarget({ controllers: false });
    suite.ns = uniqueName(prefix);
    const created = await suite.t.call("POST", "/api/v1/namespaces", {
      body: { metadata: { name: suite.ns } },
    });
    expect(created.status, created.text).toBe(201);
  });
  afterAll(async () => {
    for (const path of cleanup.reverse()) await suite.t.call("DELETE", path);
    await suite.t.close();
  });
  return suite;
}

/** Column names of a read Table. */
export const columnNames = (cols: [string, string, number][]): string[] => cols.map((c) => c[0]);

/** A PKCS#10 request for CN=alice (an EC P-256 key made for this test), base64 as CSRs carry it. */
export const CSR =
  "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIS01ISUNBUUF3RURFT01Bd0dBMVVFQXd3RllXeHBZMlV3V1RBVEJnY3Foa2pPUFFJQkJnZ3Foa2pPUFFNQgpCd05DQUFSU01oTWw4WVFwK1A3WTE4NFlpU3BUTXN2cVFoWG1Ocit0cVFPdk9qVnlWaFpsTkpaR2J1eElMOWtOCkdzc1hSd1dkREQ5VDZhRmhldlNhb0h1S0prd0pvQUF3Q2dZSUtvWkl6ajBFQXdJRFNBQXdSUUlnY0Z3OXk2aDIKNDNhcEdxU3VpVXNRcHZ5RjJlK0RUUnh5OFdkQVc1QkZHaFVDSVFDdVhmODNRM1JmVHYrNVJqWmlHd0djMUcwbwo3eVF1UEhnWktCeHJiSVhNQWc9PQotLS0tLUVORCBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0K";
