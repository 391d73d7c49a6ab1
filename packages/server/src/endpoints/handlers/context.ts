/**
 * HandlerContext: what every API handler shares — the store, the served
 * resources, settings — plus the small object helpers they all use.
 */
import { parseApiVersion } from "@kubesdk/models";
import type { AdmissionChain } from "../../admission/chain.js";
import { errors, type Qualified } from "../../api/status.js";
import type { AccessRequest, UserInfo } from "../../http/auth.js";
import {
  MAX_BODY_BYTES,
  MAX_DATA_BYTES,
  MAX_OBJECT_BYTES,
  OFF_THREAD_DECODE_BYTES,
} from "../../http/limits.js";
import { goEncodedAs } from "../../openapi/go-written.js";
import { apiVersionOf, type ServedResource } from "../../resources/served.js";
import type { ResourceTable } from "../../resources/table.js";
import type { MvccStore, StoredObject } from "../../storage/mvcc.js";

export interface ServerSettings {
  /** How long a read for a resourceVersion newer than the store waits before 504. */
  readonly tooLargeResourceVersionWaitMs: number;
  /** Maximum accepted request body (upstream: 3 MiB). */
  readonly maxBodyBytes: number;
  /** Largest object the store accepts, as JSON (etcd's default request limit: 1.5 MiB). */
  readonly maxObjectBytes: number;
  /** Largest data of a ConfigMap or Secret (upstream validation: 1 MiB). */
  readonly maxDataBytes: number;
  /**
   * JSON request bodies of at least this many bytes (YAML: an eighth of it) are decoded on a worker
   * thread, so that parsing them does not hold up other requests; Infinity decodes all in-process.
   */
  readonly offThreadDecodeBytes: number;
  /** Whether watch requests may use sendInitialEvents (streaming lists). */
  readonly watchList: boolean;
  /**
   * How long a deleted namespace stays Terminating before the built-in stand-in for the namespace
   * controller removes its contents and the namespace (clients can observe the Terminating phase).
   */
  readonly namespaceFinalizeDelayMs: number;
  /**
   * How long a call to a CRD's conversion webhook may take before the request fails (upstream's
   * webhook client: 30 s, also named in the call's URL); tests of a hanging webhook shorten it.
   */
  readonly conversionWebhookTimeoutMs: number;
}

export const DEFAULT_SETTINGS: ServerSettings = {
  tooLargeResourceVersionWaitMs: 3000,
  maxBodyBytes: MAX_BODY_BYTES,
  maxObjectBytes: MAX_OBJECT_BYTES,
  maxDataBytes: MAX_DATA_BYTES,
  offThreadDecodeBytes: OFF_THREAD_DECODE_BYTES,
  watchList: true,
  namespaceFinalizeDelayMs: 500,
  conversionWebhookTimeoutMs: 30_000,
};

export interface HandlerContext {
  readonly store: MvccStore;
  readonly resources: ResourceTable;
  readonly settings: ServerSettings;
  readonly now: () => number;
  /** The admission plugins writes pass (admission/index.ts); the server's default chain when unset. */
  readonly admission?: AdmissionChain;
  /** Who a bearer token belongs to (TokenReview); unset: no token authenticates. */
  readonly authenticateToken?: (token: string) => UserInfo | undefined;
  /** Whether the authorizer lets `user` do `access` (SubjectAccessReview and its kin). */
  readonly authorizes?: (user: UserInfo, access: AccessRequest) => boolean;
}

/** The response of an API handler before encoding. */
export interface ApiResponse {
  readonly code: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

export type KubeObject = StoredObject & { apiVersion?: string; kind?: string };

export function objectKey(r: ServedResource, namespace: string | undefined, name: string): string {
  return r.namespaced ? `${namespace ?? ""}/${name}` : name;
}

export function listPrefix(r: ServedResource, namespace: string | undefined): string {
  return r.namespaced && namespace ? `${namespace}/` : "";
}

export function qualified(r: ServedResource): Qualified {
  return { group: r.group, resource: r.resource };
}

/**
 * The object as the requested version presents it (CR versions share one stored shape). An object
 * that only a conversion webhook can bring to this version is answered as stored: callers that may
 * see one convert it first (handlers/converted.ts).
 */
export function present(r: ServedResource, obj: StoredObject): KubeObject {
  const apiVersion = apiVersionOf(r);
  const stored = obj as KubeObject;
  if (r.custom?.conversion?.byWebhook && stored.apiVersion !== apiVersion) return stored;
  // Custom resources are pruned and defaulted by the served version's schema on every read.
  let o = (
    r.custom?.onRead ? r.custom.onRead(obj) : r.convert ? r.convert.fromStored(obj) : obj
  ) as KubeObject;
  // A built-in kind converted from its storage version: as Go's encoding of this version writes it.
  if (r.convert && o !== obj) o = goEncodedAs(o, r);
  if (o.apiVersion === apiVersion && o.kind === r.kind) return o;
  const { apiVersion: _a, kind: _k, ...rest } = o;
  return { kind: r.kind, apiVersion, ...rest } as KubeObject;
}

/** The apiVersion a custom resource is stored in (the CRD's storage version). */
export function storageApiVersion(r: ServedResource): string | undefined {
  return r.custom ? `${r.group}/${r.custom.storageVersion}` : undefined;
}

/**
 * The object as its bucket keeps it (events.k8s.io events: the core shape; custom resources: their
 * storage version). Only for objects whose content is in the apiVersion they carry: a custom
 * resource of conversion Webhook is left in its version (writes convert it first: storedForm in
 * handlers/converted.ts).
 */
export function toStored<T extends StoredObject>(r: ServedResource, obj: T): T {
  const storage = storageApiVersion(r);
  if (storage !== undefined) {
    const apiVersion = (obj as { apiVersion?: unknown }).apiVersion;
    if (apiVersion === storage || r.custom?.conversion?.byWebhook) return obj;
    return { ...obj, apiVersion: storage };
  }
  if (!r.convert) return obj;
  const stored = r.convert.toStored(obj) as T;
  if (stored === obj) return obj;
  const gv = parseApiVersion(String(stored.apiVersion ?? ""));
  return goEncodedAs(stored, { ...gv, kind: String(stored.kind ?? "") });
}

export function metadataOf(obj: unknown): Record<string, unknown> {
  const m = (obj as { metadata?: unknown } | null)?.metadata;
  return typeof m === "object" && m !== null && !Array.isArray(m) ? (m as Record<string, unknown>) : {};
}

/** The stored object `name` as `r` presents it, if there is one. */
export function findObject(
  ctx: HandlerContext,
  r: ServedResource,
  namespace: string | undefined,
  name: string,
): KubeObject | undefined {
  const obj = ctx.store.get(r.bucket, objectKey(r, namespace, name));
  return obj ? present(r, obj) : undefined;
}

/** The stored object `name` as `r` presents it, or the 404 Status. */
export function loadObject(
  ctx: HandlerContext,
  r: ServedResource,
  namespace: string | undefined,
  name: string,
): KubeObject {
  const obj = findObject(ctx, r, namespace, name);
  if (!obj) throw errors.notFound(qualified(r), name);
  return obj;
}
