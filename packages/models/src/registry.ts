/**
 * The resource registry: built-in resources from the generated data plus any added at run time
 * (custom resources). Immutable; `with` / `without` return new registries.
 */
import { ModelsError } from "./errors.js";
import { builtinGroups, builtinResources } from "./generated/resources.js";
import type { GroupVersionKind, GroupVersionResource } from "./gvk.js";
import { compareKubeVersions } from "./kube-version.js";
import type { GroupInfo, GroupVersions, ResourceInfo } from "./resource-info.js";
import { validateResourceInfo } from "./resource-info-check.js";

export interface ResolveOptions {
  readonly group?: string;
  readonly version?: string;
}

export class ResourceRegistry {
  readonly #resources: readonly ResourceInfo[];
  readonly #groupOrder: readonly GroupVersions[];
  readonly #groups: readonly GroupInfo[];
  readonly #byKind = new Map<string, ResourceInfo>();
  readonly #byResource = new Map<string, ResourceInfo>();

  /**
   * `groupOrder` fixes the discovery order of known groups and their versions (preferred first);
   * groups and versions not in it follow, groups by name and versions in Kubernetes version order.
   */
  constructor(resources: readonly ResourceInfo[], groupOrder: readonly GroupVersions[] = []) {
    this.#groupOrder = groupOrder;
    this.#groups = orderGroups(resources, groupOrder);
    const rank = new Map<string, number>();
    this.#groups.forEach((g, gi) => {
      g.versions.forEach((v, vi) => {
        rank.set(`${g.group}/${v}`, gi * 1000 + vi);
      });
    });
    // Discovery order: group priority, then version preference, then the given order.
    this.#resources = resources
      .map((r, i) => ({ r, i }))
      .sort((a, b) => (rank.get(gv(a.r)) ?? 0) - (rank.get(gv(b.r)) ?? 0) || a.i - b.i)
      .map(({ r }) => r);
    for (const r of this.#resources) {
      this.#byResource.set(gvrKey(r.group, r.version, r.plural), r);
      const kindKey = gvkKey(r.group, r.version, r.kind);
      if (!this.#byKind.has(kindKey)) this.#byKind.set(kindKey, r);
    }
  }

  /** The resource serving a kind, e.g. apps/v1 Deployment → deployments. */
  lookup(gvk: GroupVersionKind): ResourceInfo | undefined {
    return this.#byKind.get(gvkKey(gvk.group, gvk.version, gvk.kind));
  }

  byResource(gvr: GroupVersionResource): ResourceInfo | undefined {
    return this.#byResource.get(gvrKey(gvr.group, gvr.version, gvr.resource));
  }

  /**
   * kubectl-style name resolution for user input: a plural ("pods"), singular ("pod"), short
   * name ("po"), kind ("Pod") or a qualified form "deployments.apps" / "deployments.v1.apps".
   * Without a version the group's preferred version wins; across groups, discovery order wins
   * (so "events" is the core one). Throws ModelsError UNKNOWN_RESOURCE when nothing matches.
   */
  resolve(name: string, options: ResolveOptions = {}): ResourceInfo {
    const wanted = name.trim().toLowerCase();
    for (const { resource, group, version } of this.#interpretations(wanted, options)) {
      const pool = this.#resources.filter(
        (r) => (group === undefined || r.group === group) && (version === undefined || r.version === version),
      );
      const found =
        pool.find(
          (r) => r.plural === resource || r.singular === resource || r.kind.toLowerCase() === resource,
        ) ?? pool.find((r) => r.shortNames.includes(resource));
      if (found) return found;
    }
    const scope = [options.group, options.version].filter((s) => s !== undefined).join("/");
    throw new ModelsError(
      "UNKNOWN_RESOURCE",
      `the server doesn't have a resource type "${name}"${scope ? ` in ${scope}` : ""}`,
    );
  }

  /** "a.b.c" may be a resource "a" in group "b.c", or "a" at version "b" of group "c". */
  *#interpretations(
    name: string,
    options: ResolveOptions,
  ): Generator<{ resource: string; group: string | undefined; version: string | undefined }> {
    yield { resource: name, group: options.group, version: options.version };
    const dot = name.indexOf(".");
    if (dot <= 0 || options.group !== undefined) return;
    const resource = name.slice(0, dot);
    const rest = name.slice(dot + 1);
    const second = rest.indexOf(".");
    if (second > 0) {
      const version = rest.slice(0, second);
      const group = rest.slice(second + 1);
      if (this.#groups.some((g) => g.group === group && g.versions.includes(version))) {
        yield { resource, group, version };
      }
    }
    yield { resource, group: rest, version: options.version };
  }

  /** Groups in discovery order with their versions (preferred first). */
  groups(): readonly GroupInfo[] {
    return this.#groups;
  }

  /** Resources of one group version, in discovery order. */
  resourcesFor(group: string, version: string): readonly ResourceInfo[] {
    return this.#resources.filter((r) => r.group === group && r.version === version);
  }

  /** Every resource in discovery order. */
  all(): readonly ResourceInfo[] {
    return this.#resources;
  }

  /** Resources in a category such as "all" (kubectl get all), preferred versions only. */
  byCategory(category: string): readonly ResourceInfo[] {
    const preferred = new Set(this.#groups.map((g) => `${g.group}/${g.preferredVersion}`));
    return this.#resources.filter((r) => r.categories.includes(category) && preferred.has(gv(r)));
  }

  /**
   * A registry that also serves `extra` (e.g. resources defined by CRDs). An entry with the same
   * group, version and plural as an existing one replaces it. Invalid entries throw ModelsError
   * INVALID_RESOURCE_INFO naming the field.
   */
  with(extra: readonly ResourceInfo[]): ResourceRegistry {
    extra.forEach((r, i) => {
      validateResourceInfo(r, `resource #${i}`);
    });
    const replaced = new Set(extra.map((r) => gvrKey(r.group, r.version, r.plural)));
    const kept = this.#resources.filter((r) => !replaced.has(gvrKey(r.group, r.version, r.plural)));
    return new ResourceRegistry([...kept, ...extra], this.#groupOrder);
  }

  /** A registry without the resources for which `drop` returns true (e.g. a deleted CRD's). */
  without(drop: (resource: ResourceInfo) => boolean): ResourceRegistry {
    return new ResourceRegistry(
      this.#resources.filter((r) => !drop(r)),
      this.#groupOrder,
    );
  }
}

function orderGroups(resources: readonly ResourceInfo[], order: readonly GroupVersions[]): GroupInfo[] {
  const served = new Map<string, Set<string>>();
  for (const r of resources) served.set(r.group, (served.get(r.group) ?? new Set()).add(r.version));
  const known = new Map(order.map((g, i) => [g.group, { index: i, versions: g.versions }]));
  const groups = [...served.keys()].sort((a, b) => {
    const ka = known.get(a)?.index ?? Number.MAX_SAFE_INTEGER;
    const kb = known.get(b)?.index ?? Number.MAX_SAFE_INTEGER;
    return ka - kb || (a < b ? -1 : a > b ? 1 : 0);
  });
  return groups.map((group) => {
    const listed = known.get(group)?.versions ?? [];
    const at = (v: string) => {
      const i = listed.indexOf(v);
      return i === -1 ? Number.MAX_SAFE_INTEGER : i;
    };
    const versions = [...(served.get(group) as Set<string>)].sort(
      (a, b) => at(a) - at(b) || compareKubeVersions(b, a),
    );
    return { group, versions, preferredVersion: versions[0] as string };
  });
}

function gv(r: ResourceInfo): string {
  return `${r.group}/${r.version}`;
}

function gvkKey(group: string, version: string, kind: string): string {
  return `${group}/${version}/${kind}`;
}

function gvrKey(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}

/** The built-in resources of the pinned Kubernetes release. */
export const registry: ResourceRegistry = new ResourceRegistry(builtinResources, builtinGroups);
