/**
 * Type-level map from (apiVersion, kind) to the generated object and list types, derived from
 * `BuiltinKinds`: a kind is a resource when it is not a list and not one of the API's own
 * message kinds below (options, events, subresource bodies, discovery documents).
 */
import type { BuiltinKinds, KubernetesList, KubernetesObject } from "@kubesdk/models";

/** Kinds in `BuiltinKinds` that are messages of the API rather than served resources. */
type MessageKinds =
  | "APIGroup"
  | "APIVersions"
  | "DeleteOptions"
  | "Eviction"
  | "PartialObjectMetadata"
  | "Scale"
  | "Status"
  | "Table"
  | "TokenRequest"
  | "WatchEvent";

/** Resource kinds of one built-in apiVersion, e.g. "Deployment" | "DaemonSet" | … for "apps/v1". */
export type BuiltinResourceKind<AV extends keyof BuiltinKinds> = Exclude<
  keyof BuiltinKinds[AV] & string,
  `${string}List` | MessageKinds
>;

/** Built-in apiVersions that serve at least one resource ("v1", "apps/v1", …). */
export type BuiltinApiVersion = {
  [AV in keyof BuiltinKinds]: [BuiltinResourceKind<AV>] extends [never] ? never : AV;
}[keyof BuiltinKinds];

/** The generated object type, e.g. `appsV1.Deployment` for ("apps/v1", "Deployment"). */
export type BuiltinObject<
  AV extends keyof BuiltinKinds,
  K extends keyof BuiltinKinds[AV],
> = BuiltinKinds[AV][K] extends KubernetesObject ? BuiltinKinds[AV][K] : never;

/** The generated list type, e.g. `appsV1.DeploymentList`; a generic list for kinds without one. */
export type BuiltinList<
  AV extends keyof BuiltinKinds,
  K extends keyof BuiltinKinds[AV] & string,
> = `${K}List` extends keyof BuiltinKinds[AV]
  ? BuiltinKinds[AV][`${K}List`] extends KubernetesList<BuiltinObject<AV, K>>
    ? BuiltinKinds[AV][`${K}List`]
    : KubernetesList<BuiltinObject<AV, K>>
  : KubernetesList<BuiltinObject<AV, K>>;
