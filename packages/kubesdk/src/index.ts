// kubesdk: the root holds what most programs use, like the `kube` crate's root; the rest is under
// sub-paths, one per package (kubesdk/client, kubesdk/informer, kubesdk/apply, kubesdk/runtime,
// kubesdk/transport, kubesdk/models), plus kubesdk/protobuf and kubesdk/codegen.
//
//   import { Kube, InformerFactory, isNotFound, type Pod } from "kubesdk";
//   import { type ListOptions } from "kubesdk/client";
//
// What the root holds: the entry class `Kube` and its options; every model kind by name (`Pod`,
// `Deployment`, types only; docs/model-types.md says which version a name means); the errors a
// program catches and their predicates; waits; informers; apply; the controller runtime's main
// types. docs/packaging.md#the-kubesdk-root lists why each group is here. A name means one thing in
// every entry that exports it (`pnpm api:check` fails otherwise).

export { type ApplyConfiguration, ApplyConflictError, type ApplyResult, extract } from "@kubesdk/apply";
export {
  type ApplyOptions,
  ClientError,
  CrdType,
  type CustomResource,
  type CustomResourceOf,
  condition,
  type DynamicObject,
  defineCustomResource,
  deleted,
  established,
  Kube,
  type KubeConnectOptions,
  type KubeconfigTextOptions,
  type KubeFromKubeconfigOptions,
  type KubeOptions,
  type ListOptions,
  matches,
  type Patch,
  ResourceClient,
  rolloutComplete,
  type WaitCondition,
  WaitTimeoutError,
} from "@kubesdk/client";
export {
  Action,
  addFinalizer,
  applyStatus,
  Controller,
  type ControllerOptions,
  controllerReference,
  EventRecorder,
  findCondition,
  hasFinalizer,
  isConditionTrue,
  LeaderElector,
  Manager,
  type ManagerOptions,
  type ReconcileRequest,
  type ReconcileResult,
  type Reconciler,
  removeFinalizer,
  setCondition,
  setControllerReference,
  withFinalizer,
} from "@kubesdk/controller";
export {
  DeletedFinalStateUnknown,
  type EventHandlers,
  Informer,
  InformerFactory,
  type InformerScope,
  isDeletedFinalStateUnknown,
  objectKey,
  type SharedInformerOptions,
} from "@kubesdk/informer";
export type * from "@kubesdk/models/kinds";
export {
  ApiError,
  ConnectionError,
  CredentialError,
  isAlreadyExists,
  isApplyConflict,
  isConflict,
  isExpired,
  isForbidden,
  isInvalid,
  isNotFound,
  isServerTimeout,
  isServiceUnavailable,
  isTimeout,
  isTooManyRequests,
  isUnauthorized,
  KubeconfigError,
  KubesdkError,
  RequestAbortedError,
  TimeoutError,
} from "@kubesdk/transport";
