/**
 * The served resources of an established CRD: one per served version, all
 * sharing one storage bucket (conversion None: only apiVersion differs), each
 * with its own schema for validation, pruning and defaults, its printer
 * columns, selectable fields and subresources.
 */
import type { FieldError } from "../api/status.js";
import { ruleValidator } from "../cel/index.js";
import type {
  CustomConversion,
  PrinterColumn,
  ScalePaths,
  ServedResource,
  SubresourceSpec,
} from "../resources/served.js";
import { conversionOf } from "./conversion.js";
import type { ServiceResolver } from "./conversion-webhook.js";
import {
  type CrdVersion,
  namesOf,
  specOf,
  storageVersionOf,
  str,
  strList,
  subresourcesOf,
  versionsOf,
} from "./crd-view.js";
import { applyStructuralDefaults } from "./defaults.js";
import { asSchema, isObject } from "./json-schema.js";
import { pruneCustomResource } from "./prune.js";
import { compileSchema } from "./validator.js";

const VERBS = ["delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"];
/** Shown when a version declares no printer columns. */
const AGE_COLUMN: PrinterColumn = {
  name: "Age",
  type: "date",
  description: "",
  jsonPath: ".metadata.creationTimestamp",
};

export function crdNameOf(crd: unknown): string {
  const meta = (crd as { metadata?: { name?: unknown } } | null)?.metadata;
  return str(meta?.name);
}

/**
 * The served resources of a CRD; `resolveService` finds the address of a conversion webhook given
 * by `service` (none: such a webhook cannot be called); `conversionTimeoutMs` bounds a webhook call.
 */
export function customResourcesOf(
  crd: unknown,
  resolveService?: ServiceResolver,
  conversionTimeoutMs?: number,
): ServedResource[] {
  const spec = specOf(crd);
  const decode = decoderOf(str(spec.group), versionsOf(crd));
  const conversion = decodingFirst(
    conversionOf(crd, resolveService ?? (() => "no service resolver"), conversionTimeoutMs),
    decode,
  );
  const group = str(spec.group);
  const names = namesOf(crd);
  const plural = str(names.plural);
  const storageVersion = storageVersionOf(crd) ?? "";
  return versionsOf(crd)
    .filter((v) => v.served === true)
    .map((v) =>
      servedVersion(v, {
        crdName: crdNameOf(crd),
        group,
        plural,
        kind: str(names.kind),
        listKind: str(names.listKind),
        singular: str(names.singular),
        namespaced: spec.scope === "Namespaced",
        shortNames: strList(names.shortNames),
        categories: strList(names.categories),
        storageVersion,
        conversion,
        decode,
      }),
    );
}

/** Prunes and defaults a stored object by the schema of the version it is in, as upstream decodes it. */
function normalizerOf(v: CrdVersion): (obj: Record<string, unknown>) => Record<string, unknown> {
  const schema = asSchema(asSchema(v.schema)?.openAPIV3Schema);
  return (obj) => applyStructuralDefaults(pruneCustomResource(obj, schema).value, schema);
}

type Decode = (obj: Record<string, unknown>) => Record<string, unknown>;

/** Decodes a stored object by the version it is in (an unknown version: as it is). */
function decoderOf(group: string, versions: CrdVersion[]): Decode {
  const byApiVersion = new Map(versions.map((v) => [`${group}/${v.name}`, normalizerOf(v)]));
  return (o) => byApiVersion.get(String(o.apiVersion))?.(o) ?? o;
}

/** The conversion, given objects decoded in their own version first (the webhook sees them defaulted). */
function decodingFirst(conversion: CustomConversion, decode: Decode): CustomConversion {
  return {
    byWebhook: conversion.byWebhook,
    convert: (objects, apiVersion) => conversion.convert(objects.map(decode), apiVersion),
  };
}

interface CommonFacts {
  crdName: string;
  group: string;
  plural: string;
  kind: string;
  listKind: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  storageVersion: string;
  conversion: CustomConversion;
  decode: Decode;
}

function servedVersion(v: CrdVersion, c: CommonFacts): ServedResource {
  const schema = asSchema(asSchema(v.schema)?.openAPIV3Schema);
  const subs = subresourcesOf(v);
  const subresources = new Map<string, SubresourceSpec>();
  if (subs.status)
    subresources.set("status", { name: "status", kind: c.kind, verbs: ["get", "patch", "update"] });
  const scale = subs.scale ? scalePathsOf(subs.scale) : undefined;
  if (scale)
    subresources.set("scale", {
      name: "scale",
      group: "autoscaling",
      version: "v1",
      kind: "Scale",
      verbs: ["get", "patch", "update"],
    });
  const validateSchema = schema ? compileSchema(schema) : () => [];
  const validateRules = schema ? ruleValidator(schema) : undefined;
  const apiVersion = `${c.group}/${v.name}`;
  // An object of this version is decoded with its defaults; one of another version (conversion
  // None) with that version's defaults, then pruned to this version's schema, as upstream reads it.
  const normalize = (obj: Record<string, unknown>) =>
    obj.apiVersion === apiVersion || obj.apiVersion === undefined
      ? applyStructuralDefaults(pruneCustomResource(obj, schema).value, schema)
      : pruneCustomResource(c.decode(obj), schema).value;
  const columns = printerColumnsOf(v);
  return {
    group: c.group,
    version: v.name,
    resource: c.plural,
    kind: c.kind,
    listKind: c.listKind,
    singular: c.singular,
    namespaced: c.namespaced,
    verbs: new Set(VERBS),
    shortNames: c.shortNames,
    categories: c.categories,
    subresources,
    bucket: `${c.group}/${c.plural}`,
    fieldLabels: selectableFieldsOf(v),
    tracksGeneration: true,
    allowUnconditionalUpdate: false,
    returnDeletedObject: false,
    custom: {
      crdName: c.crdName,
      storageVersion: c.storageVersion,
      conversion: c.conversion,
      validate: (obj, old) => {
        const errs = ratchet([...validateSchema(obj), ...(scale ? scaleErrors(obj, scale) : [])], obj, old);
        const rules = validateRules?.(obj, old, errs) ?? [];
        return rules instanceof Promise ? rules.then((more) => [...errs, ...more]) : [...errs, ...rules];
      },
      applyDefaults(obj) {
        const out = normalize(obj);
        for (const k of Object.keys(obj)) if (!(k in out)) delete obj[k];
        Object.assign(obj, out);
      },
      printerColumns: columns.length > 0 ? columns : [AGE_COLUMN],
      selectableFields: selectableFieldsOf(v),
      ...(schema ? { schema } : {}),
      ...(scale ? { scale } : {}),
      onRead: normalize,
    },
  };
}

function scalePathsOf(scale: Record<string, unknown>): ScalePaths {
  const label = str(scale.labelSelectorPath);
  return {
    specReplicasPath: str(scale.specReplicasPath),
    statusReplicasPath: str(scale.statusReplicasPath),
    ...(label ? { labelSelectorPath: label } : {}),
  };
}

function printerColumnsOf(v: CrdVersion): PrinterColumn[] {
  const cols = Array.isArray(v.additionalPrinterColumns) ? v.additionalPrinterColumns : [];
  return cols.filter(isObject).map((c) => ({
    name: str(c.name),
    type: str(c.type),
    jsonPath: str(c.jsonPath),
    ...(c.format ? { format: str(c.format) } : {}),
    ...(c.description ? { description: str(c.description) } : {}),
    ...(typeof c.priority === "number" ? { priority: c.priority } : {}),
  }));
}

function selectableFieldsOf(v: CrdVersion): string[] {
  const fields = Array.isArray(v.selectableFields) ? v.selectableFields : [];
  return fields.filter(isObject).map((f) => str(f.jsonPath).replace(/^\./, ""));
}

/** Reads a dotted path (`.spec.replicas`) from an object. */
export function valueAt(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const seg of path.replace(/^\./, "").split(".")) {
    if (!isObject(cur)) return undefined;
    cur = cur[seg];
  }
  return cur;
}

/**
 * Validation ratcheting (upstream's CRDValidationRatcheting): on update, a schema error at a field
 * whose value did not change is dropped, so tightening a schema does not block unrelated writes.
 * Simplified: fields are correlated by path; paths through list items are never ratcheted.
 */
function ratchet(errs: FieldError[], obj: unknown, old: unknown): FieldError[] {
  if (old === undefined) return errs;
  return errs.filter((e) => {
    if (e.field.includes("[") || e.field.startsWith(".") || e.field === "<nil>") return true;
    return JSON.stringify(valueAt(obj, e.field)) !== JSON.stringify(valueAt(old, e.field));
  });
}

/** Go's %v of a decoded JSON value (close enough for messages). */
function goValue(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}

/** Go's %T of a decoded JSON value. */
function goType(v: unknown): string {
  if (typeof v === "string") return "string";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number") return "float64";
  if (Array.isArray(v)) return "[]interface {}";
  return v === null ? "<nil>" : "map[string]interface {}";
}

/** The replica counts a scale subresource reads must be non-negative int32s (upstream's ValidateScaleSpec/Status). */
function scaleErrors(obj: unknown, scale: ScalePaths): FieldError[] {
  const errs: FieldError[] = [];
  for (const path of [scale.specReplicasPath, scale.statusReplicasPath]) {
    const v = valueAt(obj, path);
    if (v === undefined) continue;
    if (typeof v !== "number" || !Number.isInteger(v))
      errs.push({
        type: "FieldValueInvalid",
        field: path,
        value: 0,
        detail: `.${path.replace(/^\./, "")} accessor error: ${goValue(v)} is of the type ${goType(v)}, expected int64`,
      });
    else if (v < 0)
      errs.push({
        type: "FieldValueInvalid",
        field: path,
        value: v,
        detail: "should be a non-negative integer",
      });
    else if (v > 2147483647)
      errs.push({
        type: "FieldValueInvalid",
        field: path,
        value: v,
        detail: "should be less than or equal to 2147483647",
      });
  }
  return errs;
}
