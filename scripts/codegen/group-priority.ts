/**
 * Discovery order of groups and versions, read from the kube-apiserver's APIService priority
 * tables (pkg/controlplane/apiserver/aggregator.go and cmd/kube-apiserver/app/aggregator.go; the
 * second overrides the first, as upstream merges them). Entries look like
 * `{Group: "apps", Version: "v1"}: {Group: 17800, Version: 15},`.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { compareKubeVersions } from "../../packages/models/src/kube-version.js";
import { CodegenError } from "./errors.js";
import { compareStrings } from "./shape.js";

export interface Priority {
  readonly group: number;
  readonly version: number;
}

export type PriorityTable = ReadonlyMap<string, Priority>;

const sources = ["pkg/controlplane/apiserver/aggregator.go", "cmd/kube-apiserver/app/aggregator.go"];
const entry = /\{Group:\s*"([^"]*)",\s*Version:\s*"([^"]+)"\}:\s*\{Group:\s*(\d+),\s*Version:\s*(\d+)\}/g;

/**
 * The aggregator serves its own group apiregistration.k8s.io; it is not in the tables and upstream
 * lists it right after the core group.
 */
const aggregatorOwn: [string, Priority] = ["apiregistration.k8s.io/v1", { group: 17900, version: 15 }];

export async function readPriorities(kubernetesDir: string): Promise<PriorityTable> {
  const table = new Map<string, Priority>([aggregatorOwn]);
  for (const source of sources) {
    const text = await readFile(join(kubernetesDir, source), "utf8");
    const found = [...text.matchAll(entry)];
    if (found.length === 0)
      throw new CodegenError("ERR_RESOURCE_PATHS", `${source}: no APIService priorities found`);
    for (const m of found) {
      table.set(`${m[1]}/${m[2]}`, { group: Number(m[3]), version: Number(m[4]) });
    }
  }
  return table;
}

export interface GroupVersions {
  readonly group: string;
  /** Served versions, preferred first. */
  readonly versions: readonly string[];
}

/**
 * Orders groups by descending group priority (groups missing from the table go last, by name) and
 * each group's versions by descending version priority, falling back to Kubernetes version order
 * (stable over beta over alpha, newest first).
 */
export function orderGroups(
  served: ReadonlyMap<string, ReadonlySet<string>>,
  table: PriorityTable,
): GroupVersions[] {
  const groupPriority = (group: string) =>
    Math.max(
      -1,
      ...[...table.entries()]
        .filter(([gv]) => gv.slice(0, gv.lastIndexOf("/")) === group)
        .map(([, p]) => p.group),
    );
  const versionPriority = (group: string, version: string) => table.get(`${group}/${version}`)?.version ?? -1;
  return [...served.entries()]
    .map(([group, versions]) => ({
      group,
      versions: [...versions].sort(
        (a, b) => versionPriority(group, b) - versionPriority(group, a) || compareKubeVersions(b, a),
      ),
    }))
    .sort((a, b) => groupPriority(b.group) - groupPriority(a.group) || compareStrings(a.group, b.group));
}
