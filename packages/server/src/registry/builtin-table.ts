/**
 * The built-in resources the reference server serves, derived from the
 * generated registry: every GA group/version resource that can be stored
 * (has get and list) or is a review answered at create (a virtual kind), each with its kind's strategy (registry/<group>/<resource>.ts).
 * Where one resource appears in several GA versions the newest is served and stored; an older one
 * is served too when the kind's strategy converts it (`otherVersions`: autoscaling/v1 HPAs).
 */
import { compareKubeVersions, type ResourceInfo, registry } from "@kubesdk/models";
import type { ServedResource, SubresourceSpec } from "../resources/served.js";
import { type GroupVersions, ResourceTable } from "../resources/table.js";
import { strategyFor } from "./kinds.js";
import { type OtherVersion, otherVersionSteps, writeStepsOf } from "./strategy.js";

/** Subresources with behaviour implemented here; others are left out of discovery. */
const IMPLEMENTED_SUBRESOURCES = new Set(["status", "scale", "approval"]);

const isGA = (v: string) => /^v\d+$/.test(v);

/** The served resource of `info`; `other` when it is an older version stored as the preferred one. */
export function toServed(info: ResourceInfo, other?: OtherVersion): ServedResource {
  const subresources = new Map<string, SubresourceSpec>();
  for (const s of info.subresources)
    if (IMPLEMENTED_SUBRESOURCES.has(s.name)) subresources.set(s.name, { ...s, verbs: [...s.verbs] });
  const kind = strategyFor(info.group, info.plural);
  const steps = kind && (other ? otherVersionSteps(kind, other) : writeStepsOf(kind));
  const convert = other?.convert ?? kind?.storage?.convert;
  return {
    group: info.group,
    version: info.version,
    resource: info.plural,
    kind: info.kind,
    listKind: info.listKind ?? `${info.kind}List`,
    singular: info.singular,
    namespaced: info.namespaced,
    verbs: new Set(info.verbs),
    shortNames: info.shortNames,
    categories: info.categories,
    subresources,
    bucket: kind?.storage?.bucket ?? `${info.group}/${info.plural}`,
    ...(convert ? { convert } : {}),
    fieldLabels: kind?.fieldLabels ?? [],
    ...(kind?.fieldLabelPaths ? { fieldLabelPaths: kind.fieldLabelPaths } : {}),
    ...(kind?.fieldLabelZeros ? { fieldLabelZeros: kind.fieldLabelZeros } : {}),
    tracksGeneration: kind?.tracksGeneration ?? false,
    allowUnconditionalUpdate: true,
    returnDeletedObject: kind?.returnsDeletedObject ?? false,
    ...(steps ? { strategy: steps } : {}),
    ...(kind?.virtual ? { virtual: true } : {}),
  };
}

export function builtinResourceTable(): ResourceTable {
  const served: ServedResource[] = [];
  const groups: GroupVersions[] = [];
  for (const g of registry.groups()) {
    const versions = [...g.versions].filter(isGA).sort((a, b) => compareKubeVersions(b, a));
    const taken = new Set<string>();
    const servedVersions: string[] = [];
    for (const version of versions) {
      let any = false;
      for (const info of registry.resourcesFor(g.group, version)) {
        const stored = info.verbs.includes("get") && info.verbs.includes("list");
        const kind = strategyFor(g.group, info.plural);
        if (!(stored || kind?.virtual)) continue;
        const other = taken.has(info.plural) ? kind?.otherVersions?.[version] : undefined;
        if (taken.has(info.plural) && !other) continue;
        taken.add(info.plural);
        served.push(toServed(info, other));
        any = true;
      }
      if (any) servedVersions.push(version);
    }
    if (servedVersions.length > 0)
      groups.push({ group: g.group, versions: servedVersions, preferred: servedVersions[0] as string });
  }
  return new ResourceTable(served, groups);
}
