/**
 * meta.k8s.io types the apiserver speaks but the published OpenAPI v3 documents leave out
 * (Table, PartialObjectMetadata, the *Options kinds). Written here from the field list of
 * k8s.io/apimachinery/pkg/apis/meta/v1 (json tags, required markers, list types), in the same
 * JSON-schema form as the published components so they go through the same emitters.
 * loadOpenApi refuses to run if upstream starts publishing one of them.
 */
const meta = "io.k8s.apimachinery.pkg.apis.meta.v1";
const ref = (name: string) => ({ $ref: `#/components/schemas/${meta}.${name}` });
const str = { type: "string" };
const int32 = { type: "integer", format: "int32" };
const int64 = { type: "integer", format: "int64" };
const bool = { type: "boolean" };
const atomicList = (items: unknown) => ({ type: "array", items, "x-kubernetes-list-type": "atomic" });
const typeMeta = { apiVersion: str, kind: str };
const tableKinds = (kind: string) => [
  { group: "meta.k8s.io", version: "v1", kind },
  { group: "meta.k8s.io", version: "v1beta1", kind },
];
const writeOptions = { dryRun: atomicList(str), fieldManager: str, fieldValidation: str };

export const supplementalSchemas: Readonly<Record<string, unknown>> = {
  [`${meta}.Table`]: {
    type: "object",
    properties: {
      ...typeMeta,
      metadata: ref("ListMeta"),
      columnDefinitions: atomicList(ref("TableColumnDefinition")),
      rows: atomicList(ref("TableRow")),
    },
    required: ["columnDefinitions", "rows"],
    "x-kubernetes-group-version-kind": tableKinds("Table"),
  },
  [`${meta}.TableColumnDefinition`]: {
    type: "object",
    properties: { name: str, type: str, format: str, description: str, priority: int32 },
    required: ["name", "type", "format", "description", "priority"],
  },
  [`${meta}.TableRow`]: {
    type: "object",
    properties: {
      cells: atomicList({}),
      conditions: atomicList(ref("TableRowCondition")),
      object: { $ref: "#/components/schemas/io.k8s.apimachinery.pkg.runtime.RawExtension" },
    },
    required: ["cells"],
  },
  [`${meta}.TableRowCondition`]: {
    type: "object",
    properties: { type: str, status: str, reason: str, message: str },
    required: ["type", "status"],
  },
  [`${meta}.TableOptions`]: {
    type: "object",
    properties: { ...typeMeta, includeObject: str },
  },
  [`${meta}.PartialObjectMetadata`]: {
    type: "object",
    properties: { ...typeMeta, metadata: ref("ObjectMeta") },
    "x-kubernetes-group-version-kind": tableKinds("PartialObjectMetadata"),
  },
  [`${meta}.PartialObjectMetadataList`]: {
    type: "object",
    properties: { ...typeMeta, metadata: ref("ListMeta"), items: atomicList(ref("PartialObjectMetadata")) },
    required: ["items"],
    "x-kubernetes-group-version-kind": tableKinds("PartialObjectMetadataList"),
  },
  [`${meta}.ListOptions`]: {
    type: "object",
    properties: {
      ...typeMeta,
      labelSelector: str,
      fieldSelector: str,
      watch: bool,
      allowWatchBookmarks: bool,
      resourceVersion: str,
      resourceVersionMatch: str,
      timeoutSeconds: int64,
      limit: int64,
      continue: str,
      sendInitialEvents: bool,
      shardSelector: str,
    },
  },
  [`${meta}.GetOptions`]: { type: "object", properties: { ...typeMeta, resourceVersion: str } },
  [`${meta}.CreateOptions`]: { type: "object", properties: { ...typeMeta, ...writeOptions } },
  [`${meta}.UpdateOptions`]: { type: "object", properties: { ...typeMeta, ...writeOptions } },
  [`${meta}.PatchOptions`]: { type: "object", properties: { ...typeMeta, ...writeOptions, force: bool } },
};
