/**
 * Facts about the Go struct field behind a proto field that decide how an empty value looks in
 * JSON. The protobuf descriptors cannot tell them (every field is proto2 `optional`), and the
 * generated schema only says which fields are required, so for now they are estimated:
 *
 * - omitEmpty: the json tag has `omitempty`. Estimated as "not required in the OpenAPI schema"
 *   (openapi-gen marks a field required exactly when it has neither `omitempty` nor `+optional`).
 * - omitZero: the json tag has `omitzero` (only ObjectMeta.creationTimestamp in 1.37).
 * - pointer: the Go field is a pointer (so an explicit zero is kept). Unknown: assumed false.
 *
 * With these estimates a zero scalar ("", 0, false) decoded from the wire is dropped from the JSON
 * unless the field is required. That is right for the many non-pointer `omitempty` fields Go
 * always writes (ObjectMeta.generateName, Container.workingDir, ...), and wrong for pointers set to
 * zero (`spec.replicas: 0`, `runAsUser: 0`), which lose their value until codegen emits per-field
 * `pointer`/`omitEmpty` facts taken from the Go struct tags.
 */
import { typeNode } from "../schema.js";

export interface GoFieldFacts {
  readonly omitEmpty: boolean;
  /** `omitzero` in the json tag: a zero struct (e.g. the zero Time) is left out, not written null. */
  readonly omitZero: boolean;
  readonly pointer: boolean;
}

const required: GoFieldFacts = { omitEmpty: false, omitZero: false, pointer: false };
const optional: GoFieldFacts = { omitEmpty: true, omitZero: false, pointer: false };
/** The only `omitzero` field of the pinned release (the schema cannot tell it apart). */
const omitZeroFields = new Set(["k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta.creationTimestamp"]);

/** Facts of the field with JSON name `jsonName` in proto message `messageFullName` (no leading dot). */
export function goFieldFacts(messageFullName: string, jsonName: string): GoFieldFacts {
  if (omitZeroFields.has(`${messageFullName}.${jsonName}`)) return { ...optional, omitZero: true };
  const node = typeNode(schemaNameOf(messageFullName));
  return node?.required.includes(jsonName) ? required : optional;
}

/** "k8s.io.api.core.v1.Pod" → "io.k8s.api.core.v1.Pod" (module names keep their dashes there). */
function schemaNameOf(messageFullName: string): string {
  return messageFullName
    .replace(/^k8s\.io\./, "io.k8s.")
    .replace(/^io\.k8s\.apiextensions_apiserver\./, "io.k8s.apiextensions-apiserver.")
    .replace(/^io\.k8s\.kube_aggregator\./, "io.k8s.kube-aggregator.");
}
