/**
 * Pruning of custom resources (structural schemas): fields the schema does
 * not specify are dropped unless `x-kubernetes-preserve-unknown-fields` says
 * otherwise; apiVersion/kind/metadata of the resource (and of embedded
 * resources) are kept, metadata itself is pruned to ObjectMeta. Returns a
 * pruned copy and the dropped paths, sorted as upstream reports them.
 */
import { typeNode } from "@kubesdk/models";
import { setMember } from "@kubesdk/models/internal";
import { pruneByType } from "../openapi/typed-prune.js";
import * as js from "./json-schema.js";

const META_FIELDS = new Set(["apiVersion", "kind", "metadata"]);
const OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

export function pruneCustomResource<T>(
  obj: T,
  schema: js.JsonSchema | undefined,
  resourceRoot = true,
): { value: T; unknown: string[] } {
  const unknown: string[] = [];
  const value = prune(obj, schema, "", resourceRoot, unknown) as T;
  return { value, unknown: unknown.sort() };
}

function prune(
  x: unknown,
  s: js.JsonSchema | undefined,
  path: string,
  resourceRoot: boolean,
  unknown: string[],
): unknown {
  const embedded = resourceRoot || js.isEmbeddedResource(s);
  if (Array.isArray(x)) {
    const items = js.itemsOf(s);
    if (js.preservesUnknown(s) && !items) return x;
    return x.map((v, i) => prune(v, items, js.childPath(path, i), false, unknown));
  }
  if (!js.isObject(x)) return x;
  const props = js.propertiesOf(s);
  const additional = js.additionalPropertiesOf(s);
  const keep = js.preservesUnknown(s);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(x)) {
    const p = js.childPath(path, k);
    if (embedded && META_FIELDS.has(k)) {
      setMember(out, k, k === "metadata" ? pruneMetadata(v, p, unknown) : v);
      continue;
    }
    const prop = (Object.hasOwn(props, k) ? props[k] : undefined) ?? additional;
    if (prop) setMember(out, k, prune(v, prop, p, false, unknown));
    else if (keep) setMember(out, k, v);
    else unknown.push(p);
  }
  return out;
}

function pruneMetadata(v: unknown, path: string, unknown: string[]): unknown {
  const node = typeNode(OBJECT_META);
  if (!node || !js.isObject(v)) return v;
  const r = pruneByType(v, node, path);
  unknown.push(...r.unknown);
  return r.value;
}
