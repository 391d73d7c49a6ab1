/**
 * Static checks of a CRD version's openAPIV3Schema, as the apiserver runs
 * them when a CRD is written: the schema must be structural (a type at every
 * level, items for arrays, no additionalProperties at the root, metadata
 * restricted to name/generateName, nothing but value validations inside
 * allOf/anyOf/oneOf/not), use only supported OpenAPI keywords, and carry
 * defaults that validate and survive pruning. Field paths and messages
 * follow apiextensions-apiserver so clients see the same 422 causes.
 */
import type { FieldError } from "../api/status.js";
import type { Steps } from "../api/steps.js";
import { compileSchemaRules } from "../cel/index.js";
import {
  asSchema,
  isEmbeddedResource,
  itemsOf,
  type JsonSchema,
  propertiesOf,
  SIZE_AND_PATTERN_KEYWORDS,
} from "./json-schema.js";
import { openAPIErrors } from "./keyword-checks.js";
import { pruneCustomResource } from "./prune.js";
import { err, key } from "./schema-paths.js";
import { structuralErrors } from "./structural.js";
import { checkSchemaUsable, compileSchema, SchemaCompileError } from "./validator.js";

/** JSON names of the keywords allowed at the root when the status subresource is on. */
const ROOT_KEYWORDS_WITH_STATUS = new Set([
  "description",
  "type",
  "format",
  "title",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  ...SIZE_AND_PATTERN_KEYWORDS,
  "items",
  "properties",
  "externalDocs",
  "example",
  "x-kubernetes-preserve-unknown-fields",
  "x-kubernetes-validations",
]);
const ROOT_KEYWORDS_GO_NAMES =
  "[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations]";

/**
 * Checks one version's `schema` (the CustomResourceValidation) found at `path`
 * (`spec.validation` when all versions share it, else `spec.versions[i].schema`). Each `yield`
 * ends a part whose cost grows with the schema: a large CRD's write runs them in separate turns of
 * the event loop (api/steps.ts). A schema that passes is compiled for serving too, so that the
 * commit, which starts serving the CRD, finds it compiled.
 */
export function* checkVersionSchemaSteps(
  validation: unknown,
  path: string,
  statusEnabled: boolean,
): Steps<FieldError[]> {
  const schema = asSchema(asSchema(validation)?.openAPIV3Schema);
  if (!schema) return [];
  const base = `${path}.openAPIV3Schema`;
  const errs: FieldError[] = rootErrors(schema, base, statusEnabled);
  const structural = structuralErrors(schema, "root", base);
  errs.push(...structural);
  yield;
  if (structural.length === 0) errs.push(...defaultErrors(schema, base, true));
  yield;
  if (structural.length === 0) errs.push(...compileSchemaRules(schema, base).errors);
  yield;
  errs.push(...openAPIErrors(schema, base, true, false));
  yield;
  if (errs.length > 0) return errs;
  try {
    checkSchemaUsable(schema);
  } catch (e) {
    if (!(e instanceof SchemaCompileError)) throw e;
    return [err("FieldValueInvalid", path, `error building validator: ${e.message}`, "")];
  }
  yield;
  compileForServing(schema);
  return errs;
}

/** What the root of a schema may not be. */
function rootErrors(schema: JsonSchema, base: string, statusEnabled: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (statusEnabled) {
    if (schema.type !== undefined && schema.type !== "object")
      errs.push(
        err(
          "FieldValueInvalid",
          `${base}.type`,
          'only "object" is allowed as the type at the root of the schema if the status subresource is enabled',
          schema.type,
        ),
      );
    else if (Object.keys(schema).some((k) => !ROOT_KEYWORDS_WITH_STATUS.has(k)))
      errs.push(
        err(
          "FieldValueInvalid",
          base,
          `only ${ROOT_KEYWORDS_GO_NAMES} fields are allowed at the root of the schema if the status subresource is enabled`,
          schema,
        ),
      );
  }
  if (schema.nullable === true)
    errs.push(err("FieldValueForbidden", `${base}.nullable`, "nullable cannot be true at the root"));
  return errs;
}

/**
 * Compiles a valid schema as serving it will (crd/custom-resource.ts), leaving the results in the
 * compilers' caches; a failure here is left for serving to report, as before.
 */
function compileForServing(schema: JsonSchema): void {
  try {
    compileSchema(schema);
    compileSchemaRules(schema, "");
  } catch {
    // Serving compiles again and handles the error where it always did.
  }
}

/** Validation errors of one value against one (sub)schema; none when the schema does not compile. */
function validateValue(s: JsonSchema, value: unknown): FieldError[] {
  try {
    return compileSchema(s)(value);
  } catch (e) {
    if (e instanceof SchemaCompileError) return [];
    throw e;
  }
}

/** Every `default` must survive pruning and validate against its own schema. */
function defaultErrors(s: JsonSchema, path: string, isRoot: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (s.default !== undefined && !isRoot) {
    const where = `${path}.default`;
    const pruned = pruneCustomResource(s.default, s, isEmbeddedResource(s)).value;
    if (JSON.stringify(pruned) !== JSON.stringify(s.default))
      errs.push(err("FieldValueInvalid", where, "must not have unknown fields", s.default));
    for (const e of validateValue(s, s.default)) {
      const field =
        e.field === "" ? where : e.field.startsWith("[") ? `${where}${e.field}` : `${where}.${e.field}`;
      errs.push({ ...e, field: e.field === "<nil>" ? e.field : field });
    }
  }
  const props = propertiesOf(s);
  for (const k of Object.keys(props).sort())
    errs.push(...defaultErrors(props[k] as JsonSchema, key(path, k), false));
  const additional = asSchema(s.additionalProperties);
  if (additional) errs.push(...defaultErrors(additional, `${path}.additionalProperties`, false));
  const items = itemsOf(s);
  if (items) errs.push(...defaultErrors(items, `${path}.items`, false));
  return errs;
}
