/**
 * Validation of a CustomResourceDefinition on create and update, as
 * apiextensions-apiserver's strategy runs it: metadata.name, group, scope,
 * versions (exactly one storage version, DNS-1035 names), names, schemas
 * (structural, see schema-checks.ts), subresources, printer columns,
 * selectable fields, conversion, stored versions and, on update, the
 * immutable fields.
 */
import { isDeepStrictEqual } from "node:util";
import { validateName } from "../api/names.js";
import type { FieldError } from "../api/status.js";
import { runAtOnce, type Steps } from "../api/steps.js";
import {
  type CrdVersion,
  type Hoisted,
  hoistedFields,
  namesOf,
  specOf,
  str,
  strList,
  subresourcesOf,
  versionsOf,
} from "./crd-view.js";
import { asSchema, isObject } from "./json-schema.js";
import { checkVersionSchemaSteps } from "./schema-checks.js";
import {
  dns1035Errors,
  validateConversion,
  validateNames,
  validatePrinterColumns,
  validateScale,
  validateSelectableFields,
} from "./validate-parts.js";

const APPROVAL = "api-approved.kubernetes.io";

const required = (field: string, detail = ""): FieldError => ({ type: "FieldValueRequired", field, detail });
const invalid = (field: string, value: unknown, detail: string): FieldError => ({
  type: "FieldValueInvalid",
  field,
  value,
  detail,
});

export function validateCrd(
  crd: Record<string, unknown>,
  old: Record<string, unknown> | undefined,
): FieldError[] {
  return runAtOnce(validateCrdSteps(crd, old));
}

/** validateCrd with pauses (`yield`) between the costly checks of its schemas (api/steps.ts). */
export function* validateCrdSteps(
  crd: Record<string, unknown>,
  old: Record<string, unknown> | undefined,
): Steps<FieldError[]> {
  const errs: FieldError[] = [];
  const spec = specOf(crd);
  const group = str(spec.group);
  const names = namesOf(crd);
  const meta = isObject(crd.metadata) ? crd.metadata : {};
  const name = str(meta.name);
  if (name !== "" && name !== `${str(names.plural)}.${group}`)
    errs.push(invalid("metadata.name", name, 'must be spec.names.plural+"."+spec.group'));

  if (group === "") errs.push(required("spec.group"));
  else {
    const e = validateName(group, "subdomain", "spec.group");
    if (e.length > 0) errs.push(invalid("spec.group", group, e.map((x) => x.detail).join(",")));
    else if (group.split(".").length < 2)
      errs.push(invalid("spec.group", group, "should be a domain with at least one dot"));
  }
  const scope = str(spec.scope);
  if (scope === "") errs.push(required("spec.scope"));
  else if (scope !== "Cluster" && scope !== "Namespaced")
    errs.push({
      type: "FieldValueNotSupported",
      field: "spec.scope",
      value: scope,
      detail: 'supported values: "Cluster", "Namespaced"',
    });

  // Upstream's order: versions, names, then what the internal form holds once for all versions.
  const versions = versionsOf({ spec });
  const hoisted = hoistedFields(versions);
  errs.push(...(yield* validateVersions(versions, hoisted)));
  if (str(names.plural) === "") errs.push(required("spec.names.plural"));
  if (str(names.singular) === "") errs.push(required("spec.names.singular"));
  if (str(names.kind) === "") errs.push(required("spec.names.kind"));
  if (str(names.listKind) === "") errs.push(required("spec.names.listKind"));
  errs.push(...validateNames(names, "spec.names"));
  errs.push(...(yield* validateShared(versions, hoisted)));
  errs.push(...validateConversion(spec.conversion, "spec.conversion"));
  if (spec.preserveUnknownFields === true && !(old && specOf(old).preserveUnknownFields === true))
    errs.push(
      invalid(
        "spec.preserveUnknownFields",
        true,
        "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
      ),
    );

  const status = isObject(crd.status) ? crd.status : {};
  const accepted = isObject(status.acceptedNames) ? status.acceptedNames : {};
  errs.push(...validateNames(accepted, "status.acceptedNames"));
  // A status write is taken as it comes (kube-apiserver does not check storedVersions there); a
  // create or a change of the spec must keep every stored version served or listed.
  if (!old || !isDeepStrictEqual(specOf(old), spec))
    errs.push(...validateStoredVersions(strList(status.storedVersions), spec));
  errs.push(...validateApproval(crd, old));
  if (old) errs.push(...validateImmutable(crd, old));
  return errs;
}

function* validateVersions(versions: readonly CrdVersion[], hoisted: Hoisted): Steps<FieldError[]> {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let unique = true;
  let storage = 0;
  for (const [i, v] of versions.entries()) {
    const p = `spec.versions[${i}]`;
    const vname = str(v.name);
    if (v.storage === true) storage++;
    if (seen.has(vname)) unique = false;
    seen.add(vname);
    const e = dns1035Errors(vname);
    if (e !== "") errs.push(invalid(`${p}.name`, vname, e));
    if (!asSchema(asSchema(v.schema)?.openAPIV3Schema)) errs.push(required(`${p}.schema.openAPIV3Schema`));
    if (v.deprecationWarning !== undefined) {
      if (v.deprecated !== true)
        errs.push(
          invalid(`${p}.deprecationWarning`, v.deprecationWarning, "can only be set for deprecated versions"),
        );
      else if (str(v.deprecationWarning).length > 256)
        errs.push(invalid(`${p}.deprecationWarning`, v.deprecationWarning, "must be <= 256 characters long"));
    }
    if (!hoisted.schema)
      errs.push(...(yield* checkVersionSchemaSteps(v.schema, `${p}.schema`, subresourcesOf(v).status)));
    if (!hoisted.subresources) errs.push(...validateScale(v.subresources, `${p}.subresources`));
    if (!hoisted.columns)
      errs.push(...validatePrinterColumns(v.additionalPrinterColumns, `${p}.additionalPrinterColumns`));
    if (!hoisted.selectableFields)
      errs.push(
        ...validateSelectableFields(
          v.selectableFields,
          asSchema(asSchema(v.schema)?.openAPIV3Schema),
          `${p}.selectableFields`,
          true,
        ),
      );
  }
  const shown = internalVersions(versions, hoisted);
  if (!unique) errs.push(invalid("spec.versions", shown, "must contain unique version names"));
  if (storage !== 1)
    errs.push(invalid("spec.versions", shown, "must have exactly one version marked as storage version"));
  return errs;
}

/** The per-version parts every version shares, which upstream validates once at the spec level. */
function* validateShared(versions: readonly CrdVersion[], hoisted: Hoisted): Steps<FieldError[]> {
  const errs: FieldError[] = [];
  const anyStatus = versions.some((v) => subresourcesOf(v).status);
  const first = versions[0];
  if (first) {
    if (hoisted.schema)
      errs.push(...(yield* checkVersionSchemaSteps(first.schema, "spec.validation", anyStatus)));
    if (hoisted.subresources) errs.push(...validateScale(first.subresources, "spec.subresources"));
    if (hoisted.columns)
      errs.push(...validatePrinterColumns(first.additionalPrinterColumns, "spec.additionalPrinterColumns"));
    if (hoisted.selectableFields)
      errs.push(
        ...validateSelectableFields(
          first.selectableFields,
          // The shared schema: none when the versions' schemas differ.
          hoisted.schema ? asSchema(asSchema(first.schema)?.openAPIV3Schema) : undefined,
          "spec.selectableFields",
          false,
        ),
      );
  }
  return errs;
}

/** The versions as upstream prints them in messages: its internal type, Go field names, hoisted parts null. */
function internalVersions(versions: readonly CrdVersion[], hoisted: Hoisted): unknown[] {
  return versions.map((v) => ({
    Name: v.name,
    Served: v.served ?? false,
    Storage: v.storage ?? false,
    Deprecated: v.deprecated ?? false,
    DeprecationWarning: v.deprecationWarning ?? null,
    Schema: hoisted.schema ? null : (v.schema ?? null),
    Subresources: hoisted.subresources ? null : (v.subresources ?? null),
    AdditionalPrinterColumns: hoisted.columns ? null : (v.additionalPrinterColumns ?? null),
    SelectableFields: hoisted.selectableFields ? null : (v.selectableFields ?? null),
  }));
}

function validateStoredVersions(stored: string[], spec: Record<string, unknown>): FieldError[] {
  const path = "status.storedVersions";
  // An empty list is a nil slice in Go, printed as null.
  if (stored.length === 0) return [invalid(path, null, "must have at least one stored version")];
  const errs: FieldError[] = [];
  const remaining = new Map(stored.map((v, i) => [v, i]));
  for (const v of versionsOf({ spec })) {
    if (v.storage === true && !remaining.has(v.name))
      errs.push(invalid(path, stored, `must have the storage version ${v.name}`));
    remaining.delete(v.name);
  }
  for (const [v, i] of remaining)
    errs.push(
      invalid(
        `${path}[${i}]`,
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    );
  return errs;
}

function approvalState(crd: Record<string, unknown>): { state: string; reason: string; value: string } {
  const meta = isObject(crd.metadata) ? crd.metadata : {};
  const annotations = isObject(meta.annotations) ? meta.annotations : {};
  const value = str(annotations[APPROVAL]);
  if (value === "")
    return {
      state: "missing",
      value,
      reason: `protected groups must have approval annotation "${APPROVAL}", see https://github.com/kubernetes/enhancements/pull/1111`,
    };
  if (value.startsWith("unapproved")) return { state: "bypassed", value, reason: "" };
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/]/i.test(value)) return { state: "approved", value, reason: "" };
  return {
    state: "invalid",
    value,
    reason: `protected groups must have approval annotation "${APPROVAL}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
  };
}

function validateApproval(
  crd: Record<string, unknown>,
  old: Record<string, unknown> | undefined,
): FieldError[] {
  const group = str(specOf(crd).group);
  const protectedGroup =
    group === "k8s.io" ||
    group.endsWith(".k8s.io") ||
    group === "kubernetes.io" ||
    group.endsWith(".kubernetes.io");
  if (!protectedGroup) return [];
  const now = approvalState(crd);
  if (old && approvalState(old).state === now.state) return [];
  const field = `metadata.annotations[${APPROVAL}]`;
  if (now.state === "missing") return [required(field, now.reason)];
  if (now.state === "invalid") return [invalid(field, now.value, now.reason)];
  return [];
}

function established(crd: Record<string, unknown>): boolean {
  const status = isObject(crd.status) ? crd.status : {};
  const conditions = Array.isArray(status.conditions) ? status.conditions : [];
  return conditions.some((c) => isObject(c) && c.type === "Established" && c.status === "True");
}

function validateImmutable(crd: Record<string, unknown>, old: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const immutable = (field: string, now: unknown, before: unknown) => {
    if (JSON.stringify(now) !== JSON.stringify(before)) errs.push(invalid(field, now, "field is immutable"));
  };
  const spec = specOf(crd);
  const oldSpec = specOf(old);
  if (established(old)) {
    immutable("spec.scope", spec.scope, oldSpec.scope);
    immutable("spec.names.kind", namesOf(crd).kind, namesOf(old).kind);
  }
  immutable("spec.group", spec.group, oldSpec.group);
  immutable("spec.names.plural", namesOf(crd).plural, namesOf(old).plural);
  return errs;
}
