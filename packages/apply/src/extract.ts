/**
 * extract: the apply configuration a field manager owns in a live object —
 * its Apply entry's field set applied to the object, plus the identity
 * (apiVersion, kind, name, namespace) — like client-go's ExtractX, so a
 * read-modify-apply loop sends only what it owns. fieldsV1 keys carry the key
 * values of list items, so no schema is needed to find them.
 */

import type { metaV1 } from "@kubesdk/models";
import { setMember } from "@kubesdk/models/internal";
import type { ApplyConfiguration, ObjectWithTypeMeta } from "./apply-configuration.js";

type Tree = Record<string, unknown>;
const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function childKeys(tree: Tree): string[] {
  return Object.keys(tree).filter((k) => k !== ".");
}

function itemMatches(item: unknown, key: string, index: number): boolean {
  const rest = key.slice(2);
  if (key.startsWith("i:")) return Number(rest) === index;
  if (key.startsWith("v:")) return JSON.stringify(item) === JSON.stringify(JSON.parse(rest));
  if (key.startsWith("k:")) {
    if (!isObj(item)) return false;
    const want = JSON.parse(rest) as Record<string, unknown>;
    return Object.entries(want).every(([k, v]) => JSON.stringify(item[k]) === JSON.stringify(v));
  }
  return false;
}

function pick(value: unknown, tree: Tree): unknown {
  const keys = childKeys(tree);
  if (keys.length === 0) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    value.forEach((item, i) => {
      const k = keys.find((key) => itemMatches(item, key, i));
      if (k !== undefined) out.push(pick(item, tree[k] as Tree));
    });
    return out;
  }
  if (!isObj(value)) return value;
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    if (!k.startsWith("f:")) continue;
    const name = k.slice(2);
    // Own members only, and set as members: "__proto__" and "constructor" are keys here.
    if (Object.hasOwn(value, name)) setMember(out, name, pick(value[name], tree[k] as Tree));
  }
  return out;
}

export interface ExtractOptions {
  /** The subresource the manager applied to (e.g. "status"); default: the main resource. */
  readonly subresource?: string;
}

export function extract<T extends ObjectWithTypeMeta>(
  obj: T,
  fieldManager: string,
  opts: ExtractOptions = {},
): ApplyConfiguration<T> {
  const meta = (obj.metadata ?? {}) as metaV1.ObjectMeta;
  const entry = (meta.managedFields ?? []).find(
    (e) =>
      e.manager === fieldManager &&
      e.operation === "Apply" &&
      (e.subresource ?? "") === (opts.subresource ?? ""),
  );
  const owned = entry?.fieldsV1 ? (pick(obj, entry.fieldsV1 as Tree) as Record<string, unknown>) : {};
  const ownedMeta = isObj(owned.metadata) ? owned.metadata : {};
  return {
    ...owned,
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    metadata: {
      ...ownedMeta,
      name: meta.name ?? "",
      ...(meta.namespace ? { namespace: meta.namespace } : {}),
    },
  } as ApplyConfiguration<T>;
}
