import type { GroupVersions, ResourceInfo, SubresourceInfo } from "@kubesdk/models";
import { expectShape } from "../io/response-shape.js";
import {
  type ApiResourceEntry,
  apiGroupListSchema,
  apiResourceListSchema,
  apiVersionsSchema,
} from "./schemas.js";

/**
 * Pure: the resources of one APIResourceList (`/api/v1`, `/apis/<g>/<v>`). Entries named
 * `<plural>/<sub>` are subresources and are attached to their resource. A document of another
 * shape is a ClientError UNEXPECTED_RESPONSE naming the fields that were wrong.
 */
export function resourcesOfList(body: unknown, group: string, version: string): ResourceInfo[] {
  const what = `discovery of ${group || "core"}/${version}`;
  const { resources } = expectShape(apiResourceListSchema, body, what, "an APIResourceList");
  const subresources = new Map<string, SubresourceInfo[]>();
  for (const entry of resources) {
    const slash = entry.name.indexOf("/");
    if (slash === -1) continue;
    const parent = entry.name.slice(0, slash);
    subresources.set(parent, [
      ...(subresources.get(parent) ?? []),
      subresourceOf(entry, slash, group, version),
    ]);
  }
  return resources
    .filter((entry) => !entry.name.includes("/"))
    .map((entry) => {
      const verbs = entry.verbs ?? [];
      return {
        group,
        version,
        kind: entry.kind,
        ...(verbs.includes("list") ? { listKind: `${entry.kind}List` } : {}),
        plural: entry.name,
        singular: entry.singularName || entry.kind.toLowerCase(),
        namespaced: entry.namespaced === true,
        verbs,
        subresources: subresources.get(entry.name) ?? [],
        shortNames: entry.shortNames ?? [],
        categories: entry.categories ?? [],
      };
    });
}

// Like the registry: group and version are set when the subresource's kind lives elsewhere.
function subresourceOf(
  entry: ApiResourceEntry,
  slash: number,
  group: string,
  version: string,
): SubresourceInfo {
  const subGroup = entry.group ?? group;
  const subVersion = entry.version ?? version;
  const elsewhere = subGroup !== group || subVersion !== version;
  return {
    name: entry.name.slice(slash + 1),
    kind: entry.kind,
    ...(elsewhere ? { group: subGroup, version: subVersion } : {}),
    verbs: entry.verbs ?? [],
  };
}

/** Pure: the groups and versions (preferred first) of `/api` (APIVersions) and `/apis` (APIGroupList). */
export function groupsOf(core: unknown, groups: unknown): GroupVersions[] {
  const { versions: coreVersions } = expectShape(
    apiVersionsSchema,
    core,
    "discovery at /api",
    "an APIVersions",
  );
  const list = expectShape(apiGroupListSchema, groups, "discovery at /apis", "an APIGroupList");
  const out: GroupVersions[] = [{ group: "", versions: coreVersions }];
  for (const g of list.groups) {
    const versions = g.versions.map((v) => v.version);
    const preferred = g.preferredVersion?.version;
    // Preferred version first, the rest in the server's order.
    const ordered =
      preferred !== undefined && versions.includes(preferred)
        ? [preferred, ...versions.filter((v) => v !== preferred)]
        : versions;
    out.push({ group: g.name, versions: ordered });
  }
  return out;
}
