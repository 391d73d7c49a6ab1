/**
 * `defineCustomResource`: a custom resource written once, in TypeScript. The TypeBox schema of each
 * version gives the object type (by inference), the CRD manifest (structural OpenAPI v3), and a
 * client-side validator; `kube.custom(definition)` gives a typed client for it.
 */
import type { metaV1 } from "@kubesdk/models";
import type { Static } from "typebox";
import { ClientError } from "../errors.js";
import { buildManifest } from "./manifest.js";
import type {
  CustomResourceDefinitionManifest,
  CustomResourceOptions,
  CustomResourceVersions,
  ResourceNames,
} from "./options.js";
import { type JsonSchemaProps, toStructuralSchema } from "./structural.js";
import { compileValidator, type ObjectValidator, type ValidationIssue } from "./validation.js";

/** A defined custom resource: what `kube.custom(definition)` and `manifest()` need. */
export interface CustomResourceDefinitionOf<
  G extends string = string,
  K extends string = string,
  V extends CustomResourceVersions = CustomResourceVersions,
> {
  readonly group: G;
  readonly kind: K;
  readonly plural: string;
  readonly singular: string;
  readonly listKind: string;
  readonly scope: "Namespaced" | "Cluster";
  readonly namespaced: boolean;
  readonly versions: V;
  /** The name of the version with `storage: true`. */
  readonly storageVersion: string;
  /** The CRD's name, `<plural>.<group>`. */
  readonly name: string;
  readonly options: CustomResourceOptions<G, K, V>;
  /** The CustomResourceDefinition to create or apply. */
  manifest(): CustomResourceDefinitionManifest;
  /** The structural schema of one version, as in the manifest. */
  schemaOf(version: string): JsonSchemaProps;
  /** What is wrong with an object for its version (its apiVersion's, else the storage version); [] if nothing. */
  validate(object: unknown): ValidationIssue[];
  /** Throws a ClientError INVALID_OBJECT listing what {@link validate} finds. */
  assertValid(object: unknown): void;
}

/** The object type of one version of a defined custom resource. */
export type CustomResourceOf<D extends CustomResourceDefinitionOf, V extends keyof D["versions"] & string> =
  D extends CustomResourceDefinitionOf<infer G, infer K, infer Vs>
    ? {
        apiVersion?: `${G}/${V}`;
        kind?: K;
        metadata?: metaV1.ObjectMeta;
      } & Static<Vs[V]["schema"]>
    : never;

/** The name of the version with `storage: true`, when the definition's literal type tells it. */
export type StorageVersionOf<D extends CustomResourceDefinitionOf> = {
  [N in keyof D["versions"] & string]: D["versions"][N] extends { readonly storage: true } ? N : never;
}[keyof D["versions"] & string];

/** Defines a custom resource once; see docs/guides/custom-resources.md. */
export function defineCustomResource<
  const G extends string,
  const K extends string,
  const V extends CustomResourceVersions,
>(options: CustomResourceOptions<G, K, V>): CustomResourceDefinitionOf<G, K, V> {
  const names = namesOf(options);
  const versionNames = Object.keys(options.versions);
  const storage = versionNames.filter((v) => options.versions[v]?.storage === true);
  if (storage.length !== 1)
    throw new ClientError(
      "INVALID_SCHEMA",
      `custom resource ${options.kind}: exactly one version must have storage: true (found ${storage.length})`,
    );
  const schemas = new Map<string, JsonSchemaProps>();
  for (const v of versionNames)
    schemas.set(v, objectSchema(toStructuralSchema(options.versions[v]?.schema, `${options.kind} ${v}`)));
  const validators = new Map<string, ObjectValidator>();
  const validatorOf = (version: string): ObjectValidator => {
    let validator = validators.get(version);
    if (!validator) {
      validator = compileValidator(schemas.get(version) as JsonSchemaProps);
      validators.set(version, validator);
    }
    return validator;
  };
  const storageVersion = storage[0] as string;
  const definition: CustomResourceDefinitionOf<G, K, V> = {
    group: options.group,
    kind: options.kind,
    ...names,
    scope: options.scope,
    namespaced: options.scope === "Namespaced",
    versions: options.versions,
    storageVersion,
    name: `${names.plural}.${options.group}`,
    options,
    manifest: () => buildManifest(options, names, schemas),
    schemaOf: (version) => {
      const schema = schemas.get(version);
      if (!schema) throw new ClientError("UNKNOWN_RESOURCE", `${options.kind} has no version ${version}`);
      return structuredClone(schema);
    },
    validate: (object) => {
      const version = versionOf(object, options.group) ?? storageVersion;
      if (!schemas.has(version))
        return [{ path: "apiVersion", message: `${options.kind} has no version ${version}` }];
      return validatorOf(version)(object);
    },
    assertValid: (object) => {
      const issues = definition.validate(object);
      if (issues.length > 0) throw invalidObject(options.kind, object, issues);
    },
  };
  return definition;
}

function namesOf(options: CustomResourceOptions<string, string, CustomResourceVersions>): ResourceNames {
  const lower = options.kind.toLowerCase();
  return {
    plural: options.plural ?? `${lower}s`,
    singular: options.singular ?? lower,
    listKind: options.listKind ?? `${options.kind}List`,
  };
}

/** The version schema with apiVersion, kind and metadata, which every CRD schema describes. */
function objectSchema(schema: JsonSchemaProps): JsonSchemaProps {
  if (schema.type !== "object")
    throw new ClientError("INVALID_SCHEMA", "custom resource schema: the version schema must be an object");
  const properties = { ...(schema.properties as Record<string, JsonSchemaProps> | undefined) };
  properties.apiVersion ??= { type: "string" };
  properties.kind ??= { type: "string" };
  properties.metadata ??= { type: "object" };
  const { properties: _, ...rest } = schema;
  // apiVersion, kind and metadata first, as kubectl explain lists them.
  const ordered = { apiVersion: properties.apiVersion, kind: properties.kind, metadata: properties.metadata };
  return { ...rest, properties: { ...ordered, ...properties } };
}

function versionOf(object: unknown, group: string): string | undefined {
  const apiVersion = (object as { apiVersion?: unknown } | null)?.apiVersion;
  if (typeof apiVersion !== "string" || !apiVersion.startsWith(`${group}/`)) return undefined;
  return apiVersion.slice(group.length + 1);
}

function invalidObject(kind: string, object: unknown, issues: ValidationIssue[]): ClientError {
  const name = (object as { metadata?: { name?: unknown } } | null)?.metadata?.name;
  const list = issues.map((i) => `${i.path}: ${i.message}`).join("; ");
  return new ClientError(
    "INVALID_OBJECT",
    `${kind} ${typeof name === "string" ? `"${name}" ` : ""}is invalid: ${list}`,
  );
}
