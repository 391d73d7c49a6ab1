/**
 * The built-in resources the reference server serves, derived from the
 * generated registry: every GA group/version resource that can be stored
 * (has get and list). Adding a built-in kind is a registry entry, not code.
 * Where one resource appears in several GA versions (autoscaling v1/v2) only
 * the preferred one is served, because we do not convert between versions.
 */
import { compareKubeVersions, type ResourceInfo, registry } from "@kubesdk/models";
import { crdStrategy } from "../crd/crd-strategy.js";
import { keepServiceAllocations } from "../handlers/service-allocation.js";
import { coreEventsStorage, eventsConversion } from "./event-conversion.js";
import { validateCoreEvent, validateEventsApiEvent } from "./event-validation.js";
import { fieldLabelsOf, returnsDeletedObject, tracksGeneration } from "./kind-traits.js";
import type { ServedResource, StorageConversion, SubresourceSpec, WriteStrategy } from "./served.js";
import { type GroupVersions, ResourceTable } from "./table.js";

/** Kinds whose writes need more than the generic pipeline, keyed by `group/resource`. */
const STRATEGIES: Record<string, WriteStrategy> = {
  "apiextensions.k8s.io/customresourcedefinitions": crdStrategy,
  "/services": { prepareUpdate: keepServiceAllocations },
  "events.k8s.io/events": { validate: validateEventsApiEvent },
  "/events": { validate: validateCoreEvent },
  // A certificate request's spec is what its requester asked for: updates keep the stored one.
  "certificates.k8s.io/certificatesigningrequests": {
    prepareUpdate(next, old, subresource) {
      if (subresource === undefined) next.spec = old.spec;
    },
  },
};

/**
 * Resources whose bucket keeps a shape of its own: core and events.k8s.io events share one bucket
 * of core events (one object, two APIs), stored with the values Go writes for unset fields.
 */
const SHARED_STORAGE: Record<string, { bucket: string; convert: StorageConversion }> = {
  "events.k8s.io/events": { bucket: "/events", convert: eventsConversion },
  "/events": { bucket: "/events", convert: coreEventsStorage },
};

/** Subresources with behaviour implemented here; others are left out of discovery. */
const IMPLEMENTED_SUBRESOURCES = new Set(["status", "scale"]);

const isGA = (v: string) => /^v\d+$/.test(v);

export function toServed(info: ResourceInfo): ServedResource {
  const subresources = new Map<string, SubresourceSpec>();
  for (const s of info.subresources)
    if (IMPLEMENTED_SUBRESOURCES.has(s.name)) subresources.set(s.name, { ...s, verbs: [...s.verbs] });
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
    bucket: `${info.group}/${info.plural}`,
    ...SHARED_STORAGE[`${info.group}/${info.plural}`],
    fieldLabels: fieldLabelsOf(info.group, info.plural),
    tracksGeneration: tracksGeneration(info.group, info.plural),
    allowUnconditionalUpdate: true,
    returnDeletedObject: returnsDeletedObject(info.group, info.plural),
    ...(STRATEGIES[`${info.group}/${info.plural}`]
      ? { strategy: STRATEGIES[`${info.group}/${info.plural}`] }
      : {}),
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
        if (taken.has(info.plural) || !info.verbs.includes("get") || !info.verbs.includes("list")) continue;
        taken.add(info.plural);
        served.push(toServed(info));
        any = true;
      }
      if (any) servedVersions.push(version);
    }
    if (servedVersions.length > 0)
      groups.push({ group: g.group, versions: servedVersions, preferred: servedVersions[0] as string });
  }
  return new ResourceTable(served, groups);
}
