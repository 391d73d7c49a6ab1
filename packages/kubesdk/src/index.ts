// kubesdk: the whole SDK behind one import, like the `kube` crate.
//
//   import { Kube, type Pod } from "kubesdk";
//
// It re-exports the client (typed and dynamic resource clients, discovery, paging, patches,
// server-side apply), the informers, the apply helpers, the connection loading and errors of the
// transport, and the Kubernetes model types: by kind name (`Pod`, `Deployment`, see
// docs/model-types.md for which version a name means) and by group namespace (`coreV1.Pod`,
// `eventsV1.Event`). Each exported name means one thing; scripts/api checks that.

export * from "@kubesdk/apply";
export * from "@kubesdk/client";
export * from "@kubesdk/controller";
export * from "@kubesdk/informer";
export * from "@kubesdk/models";
export * from "@kubesdk/transport";
export { type GenerateOptions, generateTypes } from "./gen/generate.js";
export {
  Kube,
  type KubeConnectOptions,
  type KubeconfigSource,
  type KubeconfigTextOptions,
  type KubeFromKubeconfigOptions,
  type KubeOptions,
} from "./kube.js";
