/**
 * Doc comments for the generated model types, written from facts the schema states: a link to the
 * type's section of the upstream API reference, and per field whether it is required, its number or
 * string format, a non-zero server default, how lists and maps merge, and immutability where a
 * validation rule states it (no built-in schema of 1.37 does). No upstream prose is copied.
 */
import type { ApiPackage } from "./api-packages.js";
import type { GenerationInfo } from "./render.js";
import type { Attrs, Field, Gvk, Shape } from "./shape.js";

/** `https://kubernetes.io/docs/reference/generated/kubernetes-api/v1.37/#deployment-v1-apps`. */
export function referenceUrl(info: GenerationInfo, pkg: ApiPackage, typeName: string): string | undefined {
  if (pkg.group === undefined || pkg.version === undefined) return undefined;
  const minor = info.kubernetes.split(".").slice(0, 2).join(".");
  const stem = pkg.group === "" ? "core" : pkg.group.split(".")[0];
  return `https://kubernetes.io/docs/reference/generated/kubernetes-api/v${minor}/#${typeName.toLowerCase()}-${pkg.version}-${stem}`;
}

export function typeComment(info: GenerationInfo, pkg: ApiPackage, schemaName: string, shape: Shape): string {
  const typeName = schemaName.slice(schemaName.lastIndexOf(".") + 1);
  const parts: string[] = [];
  const gvks = shape.kind === "struct" ? shape.gvks : [];
  const own = gvks.find((g) => g.kind === typeName) ?? (gvks.length === 1 ? gvks[0] : undefined);
  if (own) parts.push(`Kind \`${own.kind}\` of \`${apiVersion(own)}\`.`);
  if (shape.kind !== "struct") parts.push(...valueFacts(shape, ""));
  if (shape.preserveUnknownFields) parts.push("Keeps fields the schema does not list.");
  const url = referenceUrl(info, pkg, typeName);
  parts.push(url ? `{@link ${url} | API reference}` : `OpenAPI schema \`${schemaName}\`.`);
  return `/** ${parts.join(" ")} */`;
}

/** One line of facts for a struct field. */
export function fieldComment(field: Field, required: boolean): string {
  const facts = [required ? "Required." : "Optional."];
  facts.push(...valueFacts(field.shape, ""));
  if (field.immutable) facts.push("Immutable once set.");
  const fallback = defaultText(field.default);
  if (fallback) facts.push(`Server default: ${fallback}.`);
  return `/** ${facts.join(" ")} */`;
}

function valueFacts(shape: Shape, prefix: string): string[] {
  const facts: string[] = [];
  if (shape.kind === "scalar") {
    const format = formatText(shape);
    if (format) facts.push(`${prefix}${format}.`);
  }
  if (shape.kind === "list") {
    facts.push(...listFacts(shape));
    facts.push(...valueFacts(shape.items, "Items: "));
  }
  if (shape.kind === "map") {
    if (shape.mapType === "atomic") facts.push("Atomic map (replaced as a whole by apply).");
    facts.push(...valueFacts(shape.values, "Values: "));
  }
  if (shape.kind === "ref" || shape.kind === "struct" || shape.kind === "untyped") {
    if (shape.mapType === "atomic") facts.push("Atomic (replaced as a whole by apply).");
  }
  if (shape.embeddedResource) facts.push("An embedded object with apiVersion, kind and metadata.");
  if (shape.patchStrategy) facts.push(`Strategic merge patch: ${patchText(shape)}.`);
  return facts;
}

function listFacts(shape: Attrs): string[] {
  switch (shape.listType) {
    case "map": {
      const keys = (shape.listMapKeys ?? []).map((k) => `\`${k}\``).join(", ");
      return [`List type map, keyed by ${keys || "its items"}.`];
    }
    case "set":
      return ["List type set (unique scalars)."];
    case "atomic":
      return ["List type atomic (replaced as a whole by apply)."];
    default:
      return [];
  }
}

function patchText(shape: Attrs): string {
  const strategies = (shape.patchStrategy ?? "").split(",").join(" and ");
  return shape.patchMergeKey ? `${strategies} on \`${shape.patchMergeKey}\`` : strategies;
}

function formatText(shape: Extract<Shape, { kind: "scalar" }>): string | undefined {
  switch (shape.marker) {
    case "quantity":
      return "Quantity (e.g. `500m`, `1Gi` or a number)";
    case "int-or-string":
      return "Integer or string";
    case "time":
      return "RFC 3339 date-time, whole seconds";
    case "micro-time":
      return "RFC 3339 date-time, microseconds";
    case "date":
      return "RFC 3339 date";
    case "bytes":
      return "Base64-encoded bytes";
  }
  if (shape.format) return `Format ${shape.format}`;
  return shape.scalar === "integer" ? "Integer" : undefined;
}

/** Go zero values in `default` only restate the type; real server defaults are shown. */
function defaultText(value: unknown): string | undefined {
  if (value === undefined || value === "" || value === 0 || value === false) return undefined;
  if (typeof value === "object" && value !== null && Object.keys(value).length === 0) return undefined;
  return `\`${JSON.stringify(value).replace(/\*\//g, "*\\/")}\``;
}

function apiVersion(gvk: Gvk): string {
  return gvk.group === "" ? gvk.version : `${gvk.group}/${gvk.version}`;
}
