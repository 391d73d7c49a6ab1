/** The Table rows of built-in kinds that have their own columns; others get Name and Created At. */
import { API_CELLS } from "./cells-api.js";
import { CLUSTER_CELLS } from "./cells-cluster.js";
import { CORE_CELLS, type Row } from "./cells-core.js";
import { NETWORK_CELLS } from "./cells-network.js";
import { STORAGE_CELLS } from "./cells-storage.js";
import { WORKLOAD_CELLS } from "./cells-workloads.js";
import { BUILTIN_COLUMNS, type ColumnDefinition } from "./columns.js";
import type { Json } from "./format.js";

export interface BuiltinPrinter {
  readonly columns: readonly ColumnDefinition[];
  row(obj: Json, now: number): Row;
  /** The order of a list's rows when the kind prints them in an order of its own. */
  order?(objects: readonly Json[]): Json[];
}

/** Flow schemas print in the order they are matched: by precedence, then name. */
function byPrecedence(objects: readonly Json[]): Json[] {
  const precedence = (o: Json): number => o.spec?.matchingPrecedence ?? 0;
  return [...objects].sort((a, b) => {
    const d = precedence(a) - precedence(b);
    if (d !== 0) return d;
    const [x, y] = [String(a.metadata.name), String(b.metadata.name)];
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

export function builtinPrinter(group: string, resource: string): BuiltinPrinter | undefined {
  const key = `${group}/${resource}`;
  const columns = BUILTIN_COLUMNS[key];
  const row =
    CORE_CELLS[key] ??
    WORKLOAD_CELLS[key] ??
    CLUSTER_CELLS[key] ??
    STORAGE_CELLS[key] ??
    NETWORK_CELLS[key] ??
    API_CELLS[key];
  if (!columns || !row) return undefined;
  return key === "flowcontrol.apiserver.k8s.io/flowschemas"
    ? { columns, row, order: byPrecedence }
    : { columns, row };
}

/** The default columns' descriptions are the ObjectMeta field docs. */
export function defaultColumnDescriptions(): { name: string; createdAt: string } {
  const pods = BUILTIN_COLUMNS["/pods"] ?? [];
  return {
    name: pods.find((c) => c.name === "Name")?.description ?? "",
    createdAt: pods.find((c) => c.name === "Age")?.description ?? "",
  };
}
