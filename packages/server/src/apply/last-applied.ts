/**
 * The bridge between client-side and server-side apply, for the field manager
 * "kubectl" only (as upstream): conflicts on fields that the last-applied
 * annotation still describes (same value live) are taken over instead of
 * reported, and a successful apply keeps the annotation in step with what was
 * applied, so users can move between the two.
 */
import { FieldSet, type TypeNode } from "@kubesdk/models";
import type { KubeObject } from "../endpoints/handlers/context.js";
import { type FieldScope, leafFields, PATH_SEP } from "../fieldmanager/object-fields.js";
import { valueAt } from "./structured-merge.js";

export const LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";
export const CSA_BRIDGE_MANAGER = "kubectl";

function annotationOf(obj: KubeObject | undefined): string | undefined {
  const a = obj?.metadata.annotations as Record<string, string> | undefined;
  const v = a?.[LAST_APPLIED];
  return v ? v : undefined;
}

/** Fields of the last-applied configuration whose value the live object still has. */
export function lastAppliedOwned(
  live: KubeObject | undefined,
  schema: TypeNode | undefined,
  scope: FieldScope,
): FieldSet | undefined {
  const text = annotationOf(live);
  if (!text) return undefined;
  let last: unknown;
  try {
    last = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof last !== "object" || last === null || (last as KubeObject).apiVersion !== live?.apiVersion)
    return undefined;
  const paths: string[][] = [];
  for (const key of leafFields(last as KubeObject, schema, scope, "none", false).keys()) {
    const path = key.split(PATH_SEP);
    const lv = valueAt(live, path, schema);
    const av = valueAt(last, path, schema);
    if (lv.found && JSON.stringify(lv.value) === JSON.stringify(av.value)) paths.push(path);
  }
  return FieldSet.fromPaths(paths);
}

function sortedJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(",")}]`;
  if (typeof v === "object" && v !== null)
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${sortedJson((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(v);
}

/** After a successful apply by "kubectl": the annotation becomes the applied configuration (minus itself). */
export function syncLastApplied(
  live: KubeObject | undefined,
  result: KubeObject,
  applied: Record<string, unknown>,
): KubeObject {
  if (!annotationOf(live)) return result;
  const meta = (applied.metadata ?? {}) as Record<string, unknown>;
  const annotations = { ...((meta.annotations as Record<string, string> | undefined) ?? {}) };
  delete annotations[LAST_APPLIED];
  const { annotations: _a, ...restMeta } = meta;
  const config = {
    ...applied,
    metadata: Object.keys(annotations).length > 0 ? { ...restMeta, annotations } : restMeta,
  };
  return {
    ...result,
    metadata: {
      ...result.metadata,
      annotations: {
        ...(result.metadata.annotations as Record<string, string>),
        [LAST_APPLIED]: `${sortedJson(config)}\n`,
      },
    },
  };
}
