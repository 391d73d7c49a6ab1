/**
 * Validation of the parts of a CRD spec besides schemas: names, printer
 * columns, the scale subresource, selectable fields and conversion. Messages
 * and paths follow apiextensions-apiserver's validation.
 */
import type { FieldError } from "../api/status.js";
import { type CrdNames, str, strList } from "./crd-view.js";
import { isObject, type JsonSchema, schemaAt } from "./json-schema.js";

const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

/** apimachinery's IsDNS1035Label, joined with "," as the CRD validation joins them. */
export function dns1035Errors(value: string): string {
  const errs: string[] = [];
  if (value.length > 63) errs.push("must be no more than 63 characters");
  if (!/^[a-z]([-a-z0-9]*[a-z0-9])?$/.test(value)) errs.push(DNS1035);
  return errs.join(",");
}

const invalid = (field: string, value: unknown, detail: string): FieldError => ({
  type: "FieldValueInvalid",
  field,
  value,
  detail,
});

export function validateNames(names: Partial<CrdNames>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const plural = str(names.plural);
  const singular = str(names.singular);
  const kind = str(names.kind);
  const listKind = str(names.listKind);
  const check = (value: string, field: string, prefix = "") => {
    const e = dns1035Errors(value);
    if (value !== "" && e !== "") errs.push(invalid(`${path}.${field}`, value, prefix + e));
  };
  check(plural, "plural");
  check(singular, "singular");
  const mixed = "may have mixed case, but should otherwise match: ";
  if (kind !== "" && dns1035Errors(kind.toLowerCase()) !== "")
    errs.push(invalid(`${path}.kind`, kind, mixed + dns1035Errors(kind.toLowerCase())));
  if (listKind !== "" && dns1035Errors(listKind.toLowerCase()) !== "")
    errs.push(invalid(`${path}.listKind`, listKind, mixed + dns1035Errors(listKind.toLowerCase())));
  strList(names.shortNames).forEach((s, i) => {
    const e = dns1035Errors(s);
    if (e !== "") errs.push(invalid(`${path}.shortNames[${i}]`, s, e));
  });
  if (kind !== "" && kind === listKind)
    errs.push(invalid(`${path}.listKind`, listKind, "kind and listKind may not be the same"));
  strList(names.categories).forEach((c, i) => {
    const e = dns1035Errors(c);
    if (e !== "") errs.push(invalid(`${path}.categories[${i}]`, c, e));
  });
  return errs;
}

const COLUMN_TYPES = ["boolean", "date", "integer", "number", "string"];
const COLUMN_FORMATS = ["byte", "date", "date-time", "double", "float", "int32", "int64", "password"];

export function validatePrinterColumns(columns: unknown, path: string): FieldError[] {
  if (!Array.isArray(columns)) return [];
  const errs: FieldError[] = [];
  columns.forEach((raw, i) => {
    const col = isObject(raw) ? raw : {};
    const p = `${path}[${i}]`;
    if (str(col.name) === "") errs.push({ type: "FieldValueRequired", field: `${p}.name`, detail: "" });
    const type = str(col.type);
    const typeDetail = `must be one of ${COLUMN_TYPES.join(",")}`;
    if (type === "") errs.push({ type: "FieldValueRequired", field: `${p}.type`, detail: typeDetail });
    else if (!COLUMN_TYPES.includes(type)) errs.push(invalid(`${p}.type`, type, typeDetail));
    const format = str(col.format);
    if (format !== "" && !COLUMN_FORMATS.includes(format))
      errs.push(invalid(`${p}.format`, format, `must be one of ${COLUMN_FORMATS.join(",")}`));
    const jsonPath = str(col.jsonPath);
    if (jsonPath === "") errs.push({ type: "FieldValueRequired", field: `${p}.JSONPath`, detail: "" });
    else errs.push(...simpleJsonPathErrors(jsonPath, `${p}.JSONPath`));
  });
  return errs;
}

function simpleJsonPathErrors(s: string, field: string): FieldError[] {
  if (s.length === 0) return [invalid(field, s, "must not be empty")];
  if (s[0] !== ".") return [invalid(field, s, "must be a simple json path starting with .")];
  return [];
}

export function validateScale(subresources: unknown, path: string): FieldError[] {
  const scale = isObject(subresources) && isObject(subresources.scale) ? subresources.scale : undefined;
  if (!scale) return [];
  const errs: FieldError[] = [];
  const under = (value: unknown, field: string, prefixes: string[], detail: string, required: boolean) => {
    const p = `${path}.scale.${field}`;
    const s = str(value);
    if (s === "") {
      if (required) errs.push({ type: "FieldValueRequired", field: p, detail: "" });
      return;
    }
    const pathErrs = simpleJsonPathErrors(s, p);
    if (pathErrs.length > 0) errs.push(...pathErrs);
    else if (!prefixes.some((x) => s.startsWith(x))) errs.push(invalid(p, s, detail));
  };
  under(scale.specReplicasPath, "specReplicasPath", [".spec."], "should be a json path under .spec", true);
  under(
    scale.statusReplicasPath,
    "statusReplicasPath",
    [".status."],
    "should be a json path under .status",
    true,
  );
  under(
    scale.labelSelectorPath,
    "labelSelectorPath",
    [".spec.", ".status."],
    "should be a json path under either .spec or .status",
    false,
  );
  return errs;
}

/** `perVersion`: the fields of one version (else the ones all versions share, checked once). */
export function validateSelectableFields(
  fields: unknown,
  schema: JsonSchema | undefined,
  path: string,
  perVersion: boolean,
): FieldError[] {
  if (!Array.isArray(fields) || fields.length === 0) return [];
  if (!schema)
    return [
      invalid(
        path,
        "",
        perVersion
          ? "may only be set when `version.schema.openAPIV3Schema` is not included"
          : "may only be set when validations.schema is included",
      ),
    ];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  fields.forEach((raw, i) => {
    const p = `${path}[${i}].jsonPath`;
    const jsonPath = str(isObject(raw) ? raw.jsonPath : undefined);
    if (jsonPath === "") {
      errs.push({ type: "FieldValueRequired", field: p, detail: "" });
      return;
    }
    const segs = jsonPath.replace(/^\./, "").split(".");
    const target = /^\.[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*)*$/.test(jsonPath)
      ? schemaAt(schema, segs)
      : undefined;
    if (!target) {
      errs.push(invalid(p, jsonPath, `is an invalid path: does not refer to a valid field`));
      return;
    }
    if (segs[0] === "metadata") errs.push(invalid(p, jsonPath, "must not point to fields in metadata"));
    if (!["string", "boolean", "integer"].includes(str(target.type)))
      errs.push(
        invalid(
          p,
          jsonPath,
          "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.",
        ),
      );
    if (seen.has(jsonPath)) errs.push({ type: "FieldValueDuplicate", field: p, value: jsonPath, detail: "" });
    seen.add(jsonPath);
  });
  return errs;
}

export function validateConversion(conversion: unknown, path: string): FieldError[] {
  if (!isObject(conversion)) return [];
  const errs: FieldError[] = [];
  const strategy = str(conversion.strategy);
  if (strategy === "") errs.push({ type: "FieldValueRequired", field: `${path}.strategy`, detail: "" });
  else if (strategy !== "None" && strategy !== "Webhook")
    errs.push({
      type: "FieldValueNotSupported",
      field: `${path}.strategy`,
      value: strategy,
      detail: 'supported values: "None", "Webhook"',
    });
  const webhook = isObject(conversion.webhook) ? conversion.webhook : undefined;
  if (strategy === "Webhook") {
    const cc = webhook && isObject(webhook.clientConfig) ? webhook.clientConfig : undefined;
    if (!cc)
      errs.push({
        type: "FieldValueRequired",
        field: `${path}.webhookClientConfig`,
        detail: "required when strategy is set to Webhook",
      });
    else if ((cc.url === undefined) === (cc.service === undefined))
      errs.push({
        type: "FieldValueRequired",
        field: `${path}.webhookClientConfig`,
        detail: "exactly one of url or service is required",
      });
    const versions = strList(webhook?.conversionReviewVersions);
    if (versions.length === 0)
      errs.push({ type: "FieldValueRequired", field: `${path}.conversionReviewVersions`, detail: "" });
    else if (!versions.some((v) => v === "v1" || v === "v1beta1"))
      errs.push(
        invalid(`${path}.conversionReviewVersions`, versions, "must include at least one of v1, v1beta1"),
      );
  } else if (webhook) {
    errs.push({
      type: "FieldValueForbidden",
      field: `${path}.webhookClientConfig`,
      detail: "should not be set when strategy is not set to Webhook",
    });
  }
  return errs;
}
