/**
 * Typed views of a CustomResourceDefinition body (apiextensions.k8s.io/v1),
 * which arrives as untrusted JSON: accessors never assume a shape. Also the
 * "hoisting" the apiserver does when it converts v1 to its internal form —
 * per-version schema, subresources, printer columns and selectable fields that
 * are identical in every version move to the spec — because validation
 * reports paths of the internal form (`spec.validation.openAPIV3Schema...`).
 */
import type { apiextensionsV1 } from "@kubesdk/models";
import { isObject } from "./json-schema.js";

export type Crd = apiextensionsV1.CustomResourceDefinition;
export type CrdVersion = apiextensionsV1.CustomResourceDefinitionVersion;
export type CrdNames = apiextensionsV1.CustomResourceDefinitionNames;

export const CRD_GROUP = "apiextensions.k8s.io";
export const CRD_RESOURCE = "customresourcedefinitions";
export const CRD_BUCKET = `${CRD_GROUP}/${CRD_RESOURCE}`;

export function specOf(crd: unknown): Record<string, unknown> {
  const spec = (crd as { spec?: unknown } | null)?.spec;
  return isObject(spec) ? spec : {};
}

export function namesOf(crd: unknown): Partial<CrdNames> {
  const names = specOf(crd).names;
  return isObject(names) ? (names as Partial<CrdNames>) : {};
}

export function versionsOf(crd: unknown): CrdVersion[] {
  const v = specOf(crd).versions;
  return Array.isArray(v) ? (v.filter(isObject) as unknown as CrdVersion[]) : [];
}

export const str = (v: unknown): string => (typeof v === "string" ? v : "");
export const strList = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];

export function storageVersionOf(crd: unknown): string | undefined {
  return versionsOf(crd).find((v) => v.storage === true)?.name;
}

/** Which per-version fields the internal form carries once, at the spec level. */
export interface Hoisted {
  readonly schema: boolean;
  readonly subresources: boolean;
  readonly columns: boolean;
  readonly selectableFields: boolean;
}

export function hoistedFields(versions: readonly CrdVersion[]): Hoisted {
  const same = (
    pick: (v: CrdVersion) => unknown,
    empty: (x: unknown) => boolean = (x) => x === undefined,
  ) => {
    // One version is trivially the same as itself (no need to serialize a large schema for that).
    if (versions.length <= 1) return true;
    const first = JSON.stringify(normal(pick(versions[0] as CrdVersion), empty));
    return versions.slice(1).every((v) => JSON.stringify(normal(pick(v), empty)) === first);
  };
  const emptyList = (x: unknown) => x === undefined || (Array.isArray(x) && x.length === 0);
  return {
    schema: same((v) => v.schema),
    subresources: same((v) => v.subresources),
    columns: same((v) => v.additionalPrinterColumns, emptyList),
    selectableFields: same((v) => v.selectableFields, emptyList),
  };
}

function normal(x: unknown, empty: (x: unknown) => boolean): unknown {
  return empty(x) ? null : x;
}

export function subresourcesOf(v: CrdVersion): {
  status: boolean;
  scale: Record<string, unknown> | undefined;
} {
  const s = isObject(v.subresources) ? (v.subresources as Record<string, unknown>) : {};
  return { status: isObject(s.status), scale: isObject(s.scale) ? s.scale : undefined };
}
