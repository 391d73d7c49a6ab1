/** The resource registry data (generated/resources.ts) from OpenAPI paths and Go registry names. */
import type { ResourceInfo } from "../../packages/models/src/resource-info.js";
import { namesFor, type RegistryNames } from "./go-registry.js";
import { type GroupVersions, orderGroups, type PriorityTable } from "./group-priority.js";
import { type GenerationInfo, header } from "./render.js";
import type { PathResource } from "./resource-paths.js";
import { compareStrings } from "./shape.js";

export interface EmittedResources {
  readonly content: string;
  readonly resourceCount: number;
  readonly groupCount: number;
  /** Every resource, in discovery order. */
  readonly infos: readonly ResourceInfo[];
  /** Groups in discovery order, versions preferred first. */
  readonly groups: readonly GroupVersions[];
}

export function emitResources(
  paths: readonly PathResource[],
  names: readonly RegistryNames[],
  priorities: PriorityTable,
  info: GenerationInfo,
): EmittedResources {
  const served = new Map<string, Set<string>>();
  for (const r of paths) served.set(r.group, (served.get(r.group) ?? new Set()).add(r.version));
  const groups = orderGroups(served, priorities);

  const position = (r: PathResource) => {
    const g = groups.findIndex((x) => x.group === r.group);
    return [g, (groups[g] as GroupVersions).versions.indexOf(r.version)] as const;
  };
  const ordered = [...paths].sort((a, b) => {
    const [ga, va] = position(a);
    const [gb, vb] = position(b);
    return ga - gb || va - vb || compareStrings(a.plural, b.plural);
  });
  const infos = ordered.map((r) => toInfo(r, names));
  const lines = [
    header(info, "OpenAPI v3 paths, pkg/registry sources and APIService priorities"),
    'import type { GroupVersions, ResourceInfo } from "../resource-info.js";',
    "",
    "/** Built-in groups in discovery order; versions preferred first. */",
    "export const builtinGroups: readonly GroupVersions[] = [",
    ...groups.map((g) => `  ${JSON.stringify(g)},`),
    "];",
    "",
    "/** Every built-in resource, in discovery order. */",
    "export const builtinResources: readonly ResourceInfo[] = [",
    ...infos.map((r) => `  ${JSON.stringify(r)},`),
    "];",
    "",
  ];
  return { content: lines.join("\n"), resourceCount: infos.length, groupCount: groups.length, infos, groups };
}

function toInfo(r: PathResource, names: readonly RegistryNames[]): ResourceInfo {
  const { singular, shortNames, categories } = namesFor(names, r.plural, r.kind);
  return {
    group: r.group,
    version: r.version,
    kind: r.kind,
    ...(r.listKind ? { listKind: r.listKind } : {}),
    plural: r.plural,
    singular,
    namespaced: r.namespaced,
    verbs: r.verbs,
    subresources: r.subresources.map((s) => ({
      name: s.name,
      kind: s.kind,
      // Like discovery: group and version only when the kind lives elsewhere (Scale, Eviction, ...).
      ...(s.group !== r.group || s.version !== r.version ? { group: s.group, version: s.version } : {}),
      verbs: s.verbs,
    })),
    shortNames,
    categories,
  };
}
