/**
 * ResourceTable: what the server serves right now — built-ins plus the
 * resources of established CRDs — indexed for routing and discovery.
 */
import { apiVersionOf, type ServedResource } from "./served.js";

export interface GroupVersions {
  readonly group: string;
  readonly versions: readonly string[];
  readonly preferred: string;
}

export class ResourceTable {
  private readonly byPath = new Map<string, ServedResource>();
  private readonly builtinGroups: readonly GroupVersions[];
  private customGroups: GroupVersions[] = [];
  /** versionsOf's answers, dropped whenever the table changes (every write's admission asks, twice). */
  private versionsCache = new Map<string, readonly ServedResource[]>();

  constructor(builtins: readonly ServedResource[], groupOrder: readonly GroupVersions[]) {
    for (const r of builtins) this.byPath.set(pathKey(r.group, r.version, r.resource), r);
    this.builtinGroups = groupOrder;
  }

  find(group: string, version: string, resource: string): ServedResource | undefined {
    return this.byPath.get(pathKey(group, version, resource));
  }

  /** Resources of one group/version, in a stable order. */
  resourcesIn(group: string, version: string): ServedResource[] {
    const out: ServedResource[] = [];
    for (const r of this.byPath.values()) if (r.group === group && r.version === version) out.push(r);
    return out.sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
  }

  /** Every group with its served versions, built-ins first in upstream's order, then CRD groups. */
  groups(): readonly GroupVersions[] {
    return [...this.builtinGroups, ...this.customGroups];
  }

  hasGroupVersion(group: string, version: string): boolean {
    return this.groups().some((g) => g.group === group && g.versions.includes(version));
  }

  /** Every served version of one group/resource (they share storage). */
  versionsOf(group: string, resource: string): readonly ServedResource[] {
    const key = `${group}/${resource}`;
    let versions = this.versionsCache.get(key);
    if (versions === undefined) {
      versions = [...this.byPath.values()].filter((r) => r.group === group && r.resource === resource);
      this.versionsCache.set(key, versions);
    }
    return versions;
  }

  /** Replaces the custom resources of one CRD (empty list removes them). */
  setCustom(crdName: string, resources: readonly ServedResource[]): void {
    for (const [k, r] of this.byPath) if (r.custom?.crdName === crdName) this.byPath.delete(k);
    for (const r of resources) this.byPath.set(pathKey(r.group, r.version, r.resource), r);
    this.versionsCache = new Map();
    this.rebuildCustomGroups();
  }

  all(): IterableIterator<ServedResource> {
    return this.byPath.values();
  }

  private rebuildCustomGroups(): void {
    const builtinNames = new Set(this.builtinGroups.map((g) => g.group));
    const versions = new Map<string, Map<string, ServedResource>>();
    for (const r of this.byPath.values()) {
      if (!r.custom || builtinNames.has(r.group)) continue;
      let m = versions.get(r.group);
      if (!m) {
        m = new Map();
        versions.set(r.group, m);
      }
      m.set(r.version, r);
    }
    this.customGroups = [...versions.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([group, m]) => {
        const vs = [...m.keys()].sort(compareKubeVersions);
        return { group, versions: vs, preferred: vs[0] as string };
      });
  }
}

function pathKey(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}

/** Kubernetes version priority: GA > beta > alpha, higher numbers first, then non-kube-like names. */
export function compareKubeVersions(a: string, b: string): number {
  const rank = (v: string): [number, number, number, string] => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return [3, 0, 0, v];
    const stage = m[2] === undefined ? 0 : m[2] === "beta" ? 1 : 2;
    return [stage, -Number(m[1]), -Number(m[3] ?? 0), v];
  };
  const ra = rank(a);
  const rb = rank(b);
  for (let i = 0; i < 3; i++) if (ra[i] !== rb[i]) return (ra[i] as number) - (rb[i] as number);
  return ra[3] < rb[3] ? -1 : ra[3] > rb[3] ? 1 : 0;
}

export { apiVersionOf };
