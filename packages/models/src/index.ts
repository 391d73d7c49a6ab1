// @kubesdk/models: Kubernetes types, resource registry, schema metadata and protobuf descriptors,
// generated from the pinned Kubernetes release (see k8s-release.json) plus the code that reads them.

export { CodedError, KubesdkError, ModelsError, type ModelsErrorCode } from "./errors.js";
export { elementKey, FieldSet, formatPath, type PathElement } from "./fieldpath/field-set.js";
export type * from "./generated/kind-names.js";
export type { BuiltinKinds } from "./generated/kinds.js";
export type * from "./generated/namespaces.js";
export { kubernetesRelease } from "./generated/release.js";
export { builtinGroups, builtinResources } from "./generated/resources.js";
export { apiVersionOf, type GroupVersionKind, type GroupVersionResource, parseApiVersion } from "./gvk.js";
export { compareKubeVersions } from "./kube-version.js";
export type { KubernetesList, KubernetesObject } from "./object.js";
export {
  findProtoTypeFor,
  type ProtoRoot,
  type ProtoType,
  protoMagic,
  protoMessageNames,
  protoRoot,
  protoType,
  protoTypeFor,
} from "./proto.js";
export { type ResolveOptions, ResourceRegistry, registry } from "./registry.js";
export type { GroupInfo, GroupVersions, ResourceInfo, SubresourceInfo } from "./resource-info.js";
export {
  builtinSchemas,
  fieldOf,
  itemOf,
  type ListSemantics,
  listSemantics,
  type MergeAttributes,
  mapSemantics,
  type ScalarMarker,
  type ScalarType,
  SchemaIndex,
  schemaFor,
  type TypeNode,
  typeNode,
  type ValueKind,
} from "./schema.js";
export { failureStatus } from "./status.js";
export {
  canonicalQuantity,
  decodeObject,
  decodeWatchEvent,
  encodeObject,
  encodeWatchEvent,
  type Int64Mode,
  type ListDecoderOptions,
  ProtobufListDecoder,
  WireError,
  type WireErrorCode,
  type WireObject,
  type WireOptions,
  type WireWatchEvent,
  type WireWatchEventType,
} from "./wire/index.js";
// JSON_MEDIA_TYPE, PROTOBUF_MEDIA_TYPE, APPLY_PATCH_MEDIA_TYPE, … and mediaTypeOf.
export * from "./wire/media-types.js";
