/**
 * Unknown fields of a built-in object, found by walking it along the schema
 * metadata of its kind: what Go's strict JSON decoding reports (paths such as
 * `spec.template.spec.containers[0].foo`) and what the non-strict decoding
 * silently drops. Returns a pruned copy; the input is never modified (it may
 * share subtrees with stored objects).
 */

import { fieldOf, itemOf, type TypeNode } from "@kubesdk/models";
import { setMember } from "@kubesdk/models/internal";

export interface PruneResult<T> {
  readonly value: T;
  /** Paths of the dropped fields, in document order. */
  readonly unknown: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export function pruneByType<T>(value: T, node: TypeNode, path = ""): PruneResult<T> {
  const unknown: string[] = [];
  const out = walk(value, node, path, unknown) as T;
  return { value: out, unknown };
}

function join(parent: string, key: string): string {
  return parent === "" ? key : `${parent}.${key}`;
}

function walk(value: unknown, node: TypeNode | undefined, path: string, unknown: string[]): unknown {
  if (!node || node.kind === "untyped" || node.kind === "scalar") return value;
  if (node.kind === "list") {
    if (!Array.isArray(value)) return value;
    const item = itemOf(node);
    return value.map((v, i) => walk(v, item, `${path}[${i}]`, unknown));
  }
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const child = fieldOf(node, k);
    if (!child) {
      unknown.push(join(path, k));
      continue;
    }
    setMember(out, k, walk(v, child, join(path, k), unknown));
  }
  return out;
}
