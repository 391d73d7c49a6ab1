/** Legacy discovery documents: /api, /apis, /apis/<g>, /api/v1, /apis/<g>/<v>, /version. */

import { metricsGroup } from "../pods/metrics.js";
import type { ServedResource } from "../resources/served.js";
import type { ResourceTable } from "../resources/table.js";

export const KUBERNETES_VERSION = { major: "1", minor: "37", gitVersion: "v1.37.1" };

export function versionInfo(): Record<string, string> {
  return {
    major: KUBERNETES_VERSION.major,
    minor: KUBERNETES_VERSION.minor,
    emulationMajor: KUBERNETES_VERSION.major,
    emulationMinor: KUBERNETES_VERSION.minor,
    minCompatibilityMajor: KUBERNETES_VERSION.major,
    minCompatibilityMinor: String(Number(KUBERNETES_VERSION.minor) - 1),
    gitVersion: `${KUBERNETES_VERSION.gitVersion}+kubesdk`,
    gitCommit: "0000000000000000000000000000000000000000",
    gitTreeState: "clean",
    buildDate: "1970-01-01T00:00:00Z",
    goVersion: `node${process.versions.node}`,
    compiler: "kubesdk",
    platform: `${process.platform}/${process.arch}`,
  };
}

export function apiVersions(serverAddress: string): Record<string, unknown> {
  return {
    kind: "APIVersions",
    versions: ["v1"],
    serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress }],
  };
}

function groupDoc(g: {
  group: string;
  versions: readonly string[];
  preferred: string;
}): Record<string, unknown> {
  return {
    name: g.group,
    versions: g.versions.map((v) => ({ groupVersion: `${g.group}/${v}`, version: v })),
    preferredVersion: { groupVersion: `${g.group}/${g.preferred}`, version: g.preferred },
  };
}

export function apiGroupList(table: ResourceTable): Record<string, unknown> {
  return {
    kind: "APIGroupList",
    apiVersion: "v1",
    // metrics.k8s.io is listed last, as an aggregated API of the lowest group priority is.
    groups: [
      ...table
        .groups()
        .filter((g) => g.group !== "")
        .map(groupDoc),
      metricsGroup(),
    ],
  };
}

export function apiGroup(table: ResourceTable, group: string): Record<string, unknown> | undefined {
  const g = table.groups().find((x) => x.group === group);
  return g ? { kind: "APIGroup", apiVersion: "v1", ...groupDoc(g) } : undefined;
}

function resourceEntries(r: ServedResource): Record<string, unknown>[] {
  const main: Record<string, unknown> = {
    name: r.resource,
    singularName: r.singular,
    namespaced: r.namespaced,
    kind: r.kind,
    verbs: [...r.verbs],
  };
  if (r.shortNames.length > 0) main.shortNames = [...r.shortNames];
  if (r.categories.length > 0) main.categories = [...r.categories];
  const subs = [...r.subresources.values()].map((s) => {
    const e: Record<string, unknown> = {
      name: `${r.resource}/${s.name}`,
      singularName: "",
      namespaced: r.namespaced,
    };
    if (s.group !== undefined) e.group = s.group;
    if (s.version !== undefined) e.version = s.version;
    e.kind = s.kind;
    e.verbs = [...s.verbs];
    return e;
  });
  return [main, ...subs];
}

export function apiResourceList(
  table: ResourceTable,
  group: string,
  version: string,
): Record<string, unknown> | undefined {
  if (!table.hasGroupVersion(group, version)) return undefined;
  return {
    kind: "APIResourceList",
    apiVersion: "v1",
    groupVersion: group ? `${group}/${version}` : version,
    resources: table.resourcesIn(group, version).flatMap(resourceEntries),
  };
}

/** The discovery document (or /version) a non-resource GET addresses, if any. */
export function discoveryDocument(
  table: ResourceTable,
  pathname: string,
  info: { discovery?: { group?: string; version?: string; legacy: boolean } },
  serverAddress: string,
): unknown {
  if (pathname === "/version" || pathname === "/version/") return versionInfo();
  const d = info.discovery;
  if (!d) return undefined;
  if (d.legacy)
    return d.version === undefined ? apiVersions(serverAddress) : apiResourceList(table, "", d.version);
  if (d.group === undefined) return apiGroupList(table);
  if (d.version === undefined) return apiGroup(table, d.group);
  return apiResourceList(table, d.group, d.version);
}
