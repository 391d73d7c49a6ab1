import type { GroupVersions, metaV1, ResourceInfo, SubresourceInfo } from "@kubesdk/models";
import { ClientError } from "../errors.js";

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/**
 * Pure: the resources of one APIResourceList (`/api/v1`, `/apis/<g>/<v>`). Entries named
 * `<plural>/<sub>` are subresources and are attached to their resource.
 */
export function resourcesOfList(body: unknown, group: string, version: string): ResourceInfo[] {
  if (!isObject(body) || !Array.isArray(body.resources)) {
    throw new ClientError(
      "UNEXPECTED_RESPONSE",
      `discovery of ${group || "core"}/${version} is not an APIResourceList`,
    );
  }
  const entries = (body.resources as unknown[]).filter(isObject) as unknown as metaV1.APIResource[];
  const subresources = new Map<string, SubresourceInfo[]>();
  for (const entry of entries) {
    const slash = entry.name.indexOf("/");
    if (slash === -1) continue;
    const parent = entry.name.slice(0, slash);
    // Like the registry: group and version are set when the subresource's kind lives elsewhere.
    const subGroup = entry.group ?? group;
    const subVersion = entry.version ?? version;
    const elsewhere = subGroup !== group || subVersion !== version;
    const sub: SubresourceInfo = {
      name: entry.name.slice(slash + 1),
      kind: entry.kind,
      ...(elsewhere ? { group: subGroup, version: subVersion } : {}),
      verbs: strings(entry.verbs),
    };
    subresources.set(parent, [...(subresources.get(parent) ?? []), sub]);
  }
  return entries
    .filter(
      (entry) =>
        typeof entry.name === "string" && !entry.name.includes("/") && typeof entry.kind === "string",
    )
    .map((entry) => {
      const verbs = strings(entry.verbs);
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
        shortNames: strings(entry.shortNames),
        categories: strings(entry.categories),
      };
    });
}

/** Pure: the groups and versions (preferred first) of `/api` (APIVersions) and `/apis` (APIGroupList). */
export function groupsOf(core: unknown, groups: unknown): GroupVersions[] {
  const out: GroupVersions[] = [];
  if (isObject(core) && Array.isArray(core.versions))
    out.push({ group: "", versions: strings(core.versions) });
  if (!isObject(groups) || !Array.isArray(groups.groups)) {
    throw new ClientError("UNEXPECTED_RESPONSE", "discovery at /apis is not an APIGroupList");
  }
  for (const g of (groups.groups as unknown[]).filter(isObject) as unknown as metaV1.APIGroup[]) {
    const versions = (Array.isArray(g.versions) ? g.versions : [])
      .map((v) => v.version)
      .filter((v) => typeof v === "string");
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
