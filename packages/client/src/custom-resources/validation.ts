/**
 * Client-side validation of custom resources against their structural schema, with ajv (the
 * validator the embedded server uses too). It checks what the schema says about values: types,
 * required fields, enums, bounds, lengths, patterns, string formats (the server's own strfmt checks,
 * from @kubesdk/models/internal, so the client refuses exactly what the server refuses), nullability and
 * int-or-string. It does not evaluate CEL rules (`x-kubernetes-validations`), list-map key
 * uniqueness or defaulting: the API server still checks those, so passing here is necessary, not
 * sufficient.
 */

import { STRING_FORMATS } from "@kubesdk/models/internal";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { JsonSchemaProps } from "./structural.js";

/** One way an object fails its schema: where (a dotted field path) and what. */
export interface ValidationIssue {
  readonly path: string;
  readonly message: string;
}

export type ObjectValidator = (object: unknown) => ValidationIssue[];

let shared: Ajv | undefined;

function ajv(): Ajv {
  if (shared) return shared;
  shared = new Ajv({ strict: false, allErrors: true, logger: false, validateFormats: true });
  for (const [name, validate] of STRING_FORMATS) shared.addFormat(name, { type: "string", validate });
  return shared;
}

/** A validator for whole objects of one version (paths from the object root). */
export function compileValidator(schema: JsonSchemaProps): ObjectValidator {
  const validate: ValidateFunction = ajv().compile(toAjv(schema as Record<string, unknown>));
  return (object) => (validate(object) ? [] : (validate.errors ?? []).map(toIssue));
}

/** The structural schema in ajv's draft-07 dialect: only value validations, no `x-kubernetes-*`. */
function toAjv(s: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (s["x-kubernetes-int-or-string"] === true) out.type = ["integer", "string"];
  else if (typeof s.type === "string") out.type = s.type;
  if (s.nullable === true && out.type !== undefined) out.nullable = true;
  // A format the server does not know is not checked there either.
  if (typeof s.format === "string" && STRING_FORMATS.has(s.format) && s.type === "string")
    out.format = s.format;
  for (const k of [
    "enum",
    "required",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "multipleOf",
    "maxProperties",
    "minProperties",
  ])
    if (s[k] !== undefined) out[k] = s[k];
  for (const [bound, flag] of [
    ["minimum", "exclusiveMinimum"],
    ["maximum", "exclusiveMaximum"],
  ] as const) {
    if (typeof s[bound] === "number") out[s[flag] === true ? flag : bound] = s[bound];
  }
  const sub = (v: unknown) => toAjv((v ?? {}) as Record<string, unknown>);
  if (typeof s.properties === "object" && s.properties !== null)
    out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, sub(v)]));
  if (typeof s.additionalProperties === "object") out.additionalProperties = sub(s.additionalProperties);
  if (s.items !== undefined) out.items = sub(s.items);
  return out;
}

function toIssue(e: ErrorObject): ValidationIssue {
  const segments = e.instancePath.split("/").slice(1).map(unescapePointer);
  if (e.keyword === "required")
    segments.push(String((e.params as { missingProperty: string }).missingProperty));
  const path = segments.reduce(
    (p, seg) => (/^\d+$/.test(seg) ? `${p}[${seg}]` : p === "" ? seg : `${p}.${seg}`),
    "",
  );
  const message = e.keyword === "required" ? "Required value" : (e.message ?? e.keyword);
  return { path: path || "<root>", message };
}

const unescapePointer = (segment: string) => segment.replaceAll("~1", "/").replaceAll("~0", "~");
