// Public surface of @kubesdk/client.

export {
  type ApplyConfiguration,
  type ApplyConflict,
  ApplyConflictError,
  type ApplyResult,
  type ConflictPolicy,
  extract,
} from "@kubesdk/apply";
export { JSON_MEDIA_TYPE, PROTOBUF_MEDIA_TYPE } from "@kubesdk/models";
// Server-side apply's types and conflict error come from @kubesdk/apply; re-exported so apply
// through the client needs no second import.
// The whole error API of the transport (ApiError, the predicates, the transport error classes,
// KubesdkError) is re-exported so a project depending only on @kubesdk/client can catch what it throws.
export * from "@kubesdk/transport/errors";
export type { ApplyOptions } from "./apply-call.js";
export { CrdType, type EmbeddedObject } from "./custom-resources/crd-types.js";
export { DefinedResourceClient } from "./custom-resources/defined-client.js";
export {
  type CustomResourceDefinitionOf,
  type CustomResourceOf,
  defineCustomResource,
  type StorageVersionOf,
} from "./custom-resources/definition.js";
export type {
  CustomResourceDefinitionManifest,
  CustomResourceOptions,
  CustomResourceVersion,
  CustomResourceVersions,
  PrinterColumn,
  ScaleSubresource,
  Subresources,
} from "./custom-resources/options.js";
export { type JsonSchemaProps, toStructuralSchema } from "./custom-resources/structural.js";
export type { ValidationIssue } from "./custom-resources/validation.js";
export type { CustomResource } from "./custom-target.js";
export { Discovery } from "./discovery/discovery.js";
export { groupsOf, resourcesOfList } from "./discovery/resource-list.js";
export { ClientError, type ClientErrorCode } from "./errors.js";
export { BodyCodec, type ItemType, type ProtobufCodec } from "./io/body-codec.js";
export type { RequestControl, WatchControl } from "./io/context.js";
export { type ApiWarning, parseWarnings } from "./io/warnings.js";
export type { BuiltinApiVersion, BuiltinList, BuiltinObject, BuiltinResourceKind } from "./kinds.js";
export { type DiscoveryReference, type DynamicObject, isBuiltinGroup, Kube } from "./kube.js";
export type {
  KubeConnectOptions,
  KubeconfigSource,
  KubeconfigTextOptions,
  KubeFromKubeconfigOptions,
  KubeOptions,
} from "./kube-options.js";
export {
  DEFAULT_PAGE_SIZE,
  type FetchPage,
  type ListPage,
  ListPager,
  type ListProgress,
  type PagingOptions,
} from "./list-pager.js";
// Pod I/O and tool-builder helpers (kube.pods, kube.access, kube.metrics, manifests).
export {
  type ApplyManifestsOptions,
  type ApplyManifestsResult,
  applyManifests,
  orderManifests,
} from "./manifests/apply.js";
export { loadManifests, parseManifests } from "./manifests/load.js";
export { type ExecResult, ExecSession, type TerminalSize } from "./pods/channel-session.js";
export {
  AccessReviews,
  type ContainerMetrics,
  MetricsClient,
  type NodeMetrics,
  type PodMetrics,
  type ResourceUsage,
  type TokenOptions,
} from "./pods/cluster-tools.js";
export { PodIoError, type PodIoErrorCode } from "./pods/errors.js";
export type { LogOptions } from "./pods/logs.js";
export {
  type CopyOptions,
  type EvictOptions,
  type ExecOptions,
  PodOperations,
  type ProxyOptions,
  type RunOptions,
  type RunResult,
  type StreamOptions,
} from "./pods/pod-operations.js";
export { PortForward, type PortForwardOptions, type PortMapping } from "./pods/port-forward.js";
export { type ListAllOptions, type ListHooks, ReadClient } from "./read-client.js";
export { acceptFor, type Encoding, type Representation } from "./request/media.js";
export type {
  CreateOptions,
  DeleteCollectionOptions,
  DeleteOptions,
  FieldSelector,
  FieldValidation,
  GetOptions,
  LabelSelector,
  ListOptions,
  NamespaceOption,
  PatchOptions,
  Preconditions,
  PropagationPolicy,
  ReplaceOptions,
  ResourceVersionMatch,
  SelectionOptions,
  WatchOptions,
  WriteOptions,
} from "./request/options.js";
export { formatLabelSelector } from "./request/options.js";
export {
  type ApplyPatchObject,
  type JsonPatchOperation,
  type MergePatch,
  PATCH_CONTENT_TYPES,
  type Patch,
  type PatchType,
  type StrategicDirectives,
  type StrategicMergePatch,
} from "./request/patch.js";
export { pathSegment, ResourcePaths } from "./request/paths.js";
export {
  type ReadOptions,
  RequestBuilder,
  type RequestBuilderOptions,
  type RequestSpec,
  type SubresourceOption,
  type Verb,
} from "./request/request-builder.js";
export { isStatus, ResourceClient, type Status } from "./resource-client.js";
export { type ResourceTarget, targetOf } from "./resource-target.js";
export { SubresourceClient } from "./subresource-client.js";
export { type IncludeObject, TableClient, type TableOptions } from "./table-client.js";
export {
  condition,
  deleted,
  established,
  matches,
  type NoInferFrom,
  rolloutComplete,
  type WaitCondition,
} from "./wait/conditions.js";
export { type WaitOptions, WaitTimeoutError, waitFor } from "./wait/wait-for.js";
