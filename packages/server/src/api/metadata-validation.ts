/**
 * Validation of labels and annotations, as apimachinery's ValidateObjectMeta
 * does it: qualified-name keys, label values of at most 63 characters in the
 * label-value alphabet, annotations of at most 256 KiB in total.
 */
import type { FieldError } from "./status.js";

const NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const TOTAL_ANNOTATION_BYTES = 256 * 1024;

const NAME_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

export function qualifiedNameErrors(key: string, field: string): FieldError[] {
  const slash = key.indexOf("/");
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  const errs: FieldError[] = [];
  if (prefix !== undefined && (prefix.length === 0 || prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix)))
    errs.push({
      type: "FieldValueInvalid",
      field,
      value: key,
      detail: "prefix part must be a lowercase RFC 1123 subdomain",
    });
  if (name.length === 0)
    errs.push({ type: "FieldValueInvalid", field, value: key, detail: "name part must be non-empty" });
  else if (name.length > 63)
    errs.push({
      type: "FieldValueInvalid",
      field,
      value: key,
      detail: "name part must be no more than 63 characters",
    });
  if (!NAME.test(name)) errs.push({ type: "FieldValueInvalid", field, value: key, detail: NAME_MSG });
  return errs;
}

export function validateLabelsAndAnnotations(meta: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const labels = meta.labels;
  if (labels && typeof labels === "object") {
    for (const [k, v] of Object.entries(labels as Record<string, unknown>)) {
      errs.push(...qualifiedNameErrors(k, "metadata.labels"));
      const value = typeof v === "string" ? v : String(v);
      if (value.length > 63)
        errs.push({
          type: "FieldValueInvalid",
          field: "metadata.labels",
          value,
          detail: "must be no more than 63 characters",
        });
      if (!LABEL_VALUE.test(value))
        errs.push({ type: "FieldValueInvalid", field: "metadata.labels", value, detail: VALUE_MSG });
    }
  }
  const annotations = meta.annotations;
  if (annotations && typeof annotations === "object") {
    let total = 0;
    for (const [k, v] of Object.entries(annotations as Record<string, unknown>)) {
      errs.push(...qualifiedNameErrors(k.toLowerCase(), "metadata.annotations"));
      total += k.length + String(v).length;
    }
    if (total > TOTAL_ANNOTATION_BYTES)
      errs.push({
        type: "FieldValueTooLong",
        field: "metadata.annotations",
        detail: `may not be more than ${TOTAL_ANNOTATION_BYTES} bytes`,
      });
  }
  return errs;
}
