/**
 * generated/kind-names.ts: every built-in resource kind (and its list kind) exported by its bare
 * name, `Pod`, `Deployment`, `ConfigMapList`, each bound to one preferred group/version.
 */
import type { GroupVersions, ResourceInfo } from "../../packages/models/src/resource-info.js";
import type { ApiPackage } from "./api-packages.js";
import { packageOf } from "./api-packages.js";
import { apiVersionOf } from "./emit-types.js";
import { CodegenError } from "./errors.js";
import { type GenerationInfo, header } from "./render.js";
import { compareStrings, type Shape } from "./shape.js";

interface Served {
  readonly group: string;
  readonly version: string;
}

interface TypeRef {
  readonly namespace: string;
  readonly module: string;
  readonly local: string;
}

/** Kinds from meta/v1 that are not resources but every user handles; exported by bare name too. */
const metaKinds: readonly string[] = ["Status"];

const rule = [
  "Which version a bare name means, when several serve the kind:",
  "  1. stable (v1, v2) over beta over alpha;",
  "  2. then the group listed first in discovery (the kube-apiserver's group priority, core first),",
  "     which is also how kubectl resolves an unqualified resource name (`Event` is core/v1 Event,",
  "     not events.k8s.io/v1 Event; use `eventsV1.Event` for the other);",
  "  3. then the group's preferred version.",
  "A list kind (PodList) means the list of that same version, and is left out where that version",
  "serves no list (EvictionList: the bare Eviction is policy/v1, which has no list).",
  "Kinds are resource kinds, their list kinds and the body kinds of subresources (Scale, Eviction,",
  "TokenRequest); *Options kinds (query parameters) are not included. Every kind stays available",
  "under its group namespace (coreV1.Pod, eventsV1.Event, resourceV1beta2.ResourceClaim, ...).",
];

export function emitKindNames(
  resources: { readonly infos: readonly ResourceInfo[]; readonly groups: readonly GroupVersions[] },
  shapes: ReadonlyMap<string, Shape>,
  packages: readonly ApiPackage[],
  info: GenerationInfo,
): string {
  const types = typesByGvk(shapes, packages);
  const chosen = new Map<string, TypeRef>();
  const { kinds, lists } = servedKinds(resources.infos);
  const at = new Map<string, Served>();
  for (const [kind, served] of kinds) {
    const best = served.sort((a, b) => preference(a, b, resources.groups))[0] as Served;
    at.set(kind, best);
    chosen.set(kind, lookup(types, best, kind));
  }
  // A list kind follows its item kind, and is left out where that version has no list.
  for (const [listKind, { kind, served }] of lists) {
    const item = at.get(kind) as Served;
    if (served.some((s) => s.group === item.group && s.version === item.version)) {
      chosen.set(listKind, lookup(types, item, listKind));
    }
  }
  for (const kind of metaKinds) chosen.set(kind, lookup(types, { group: "meta", version: "v1" }, kind));

  const byModule = new Map<string, string[]>();
  for (const [kind, ref] of chosen) {
    const names = byModule.get(ref.module) ?? [];
    names.push(ref.local === kind ? kind : `${ref.local} as ${kind}`);
    byModule.set(ref.module, names);
  }
  const exports = [...byModule.entries()]
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([module, names]) => {
      const list = names.sort(compareStrings).map((n) => `  ${n},`);
      return `export type {\n${list.join("\n")}\n} from "./types/${module}.js";`;
    });
  return [
    header(info, "resource kinds of the OpenAPI v3 paths"),
    ...rule.map((line) => `// ${line}`.trimEnd()),
    "",
    ...exports,
    "",
  ].join("\n");
}

/** Kind name → every group/version serving it (resources and subresource bodies); list kinds apart. */
function servedKinds(infos: readonly ResourceInfo[]): {
  kinds: Map<string, Served[]>;
  lists: Map<string, { kind: string; served: Served[] }>;
} {
  const served = new Map<string, Served[]>();
  const lists = new Map<string, { kind: string; served: Served[] }>();
  const add = (kind: string, at: Served) => {
    const list = served.get(kind) ?? [];
    if (!list.some((s) => s.group === at.group && s.version === at.version)) list.push(at);
    served.set(kind, list);
  };
  for (const r of infos) {
    add(r.kind, r);
    if (r.listKind) {
      const entry = lists.get(r.listKind) ?? { kind: r.kind, served: [] };
      entry.served.push({ group: r.group, version: r.version });
      lists.set(r.listKind, entry);
    }
    for (const s of r.subresources) {
      if (s.kind === r.kind || s.kind.endsWith("Options")) continue;
      add(s.kind, { group: s.group ?? r.group, version: s.version ?? r.version });
    }
  }
  return { kinds: served, lists };
}

function stability(version: string): number {
  if (/^v\d+$/.test(version)) return 0;
  return /^v\d+beta\d+$/.test(version) ? 1 : 2;
}

function preference(a: Served, b: Served, groups: readonly GroupVersions[]): number {
  const groupIndex = (s: Served) => groups.findIndex((g) => g.group === s.group);
  const versionIndex = (s: Served) => groups[groupIndex(s)]?.versions.indexOf(s.version) ?? -1;
  return (
    stability(a.version) - stability(b.version) ||
    groupIndex(a) - groupIndex(b) ||
    versionIndex(a) - versionIndex(b)
  );
}

function typesByGvk(
  shapes: ReadonlyMap<string, Shape>,
  packages: readonly ApiPackage[],
): Map<string, TypeRef> {
  const types = new Map<string, TypeRef>();
  for (const [name, shape] of shapes) {
    if (shape.kind !== "struct") continue;
    const pkg = packageOf(packages, name);
    const local = name.slice(name.lastIndexOf(".") + 1);
    for (const gvk of shape.gvks) {
      const key = `${apiVersionOf(gvk)}/${gvk.kind}`;
      // meta/v1 kinds (Status, DeleteOptions, ...) carry a gvk for every group; keep the meta one.
      if (!types.has(key) || pkg.namespace === "metaV1") {
        types.set(key, { namespace: pkg.namespace, module: pkg.typesModule, local });
      }
    }
    if (pkg.namespace === "metaV1")
      types.set(`meta/v1/${local}`, { namespace: "metaV1", module: pkg.typesModule, local });
  }
  return types;
}

function lookup(types: ReadonlyMap<string, TypeRef>, at: Served, kind: string): TypeRef {
  const ref = types.get(`${apiVersionOf(at)}/${kind}`);
  if (!ref) {
    throw new CodegenError("ERR_OPENAPI_SHAPE", `no schema for kind ${kind} in ${apiVersionOf(at)}`);
  }
  return ref;
}
