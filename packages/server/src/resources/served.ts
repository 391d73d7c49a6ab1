/**
 * ServedResource: one group/version/resource the reference server answers,
 * with what its handlers need to know. Built-in kinds come from the generated
 * registry (adding one is a registry entry); custom resources from CRDs.
 */
import type { FieldError, Qualified } from "../api/status.js";
import type { Steps } from "../api/steps.js";
import type { AccessRequest, UserInfo } from "../http/auth.js";
import type { MvccStore } from "../storage/mvcc.js";

export interface SubresourceSpec {
  readonly name: string;
  readonly kind: string;
  readonly group?: string;
  readonly version?: string;
  readonly verbs: readonly string[];
}

export interface ServedResource extends Qualified {
  readonly group: string;
  readonly version: string;
  /** The plural resource name, as in URLs. */
  readonly resource: string;
  readonly kind: string;
  readonly listKind: string;
  readonly singular: string;
  readonly namespaced: boolean;
  readonly verbs: ReadonlySet<string>;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  readonly subresources: ReadonlyMap<string, SubresourceSpec>;
  /** Storage bucket: every served version of one group/resource shares it. */
  readonly bucket: string;
  /** Field paths beyond metadata.name/namespace usable in field selectors. */
  readonly fieldLabels: readonly string[];
  /** Field labels whose value is read from another path (a core event's `source`). */
  readonly fieldLabelPaths?: Readonly<Record<string, string>>;
  /** What a field label reads when its field is unset (Go's zero value, e.g. "false"). */
  readonly fieldLabelZeros?: Readonly<Record<string, string>>;
  /** Whether writes to spec bump metadata.generation (upstream strategies differ per kind). */
  readonly tracksGeneration: boolean;
  /** Whether PUT without metadata.resourceVersion is allowed (CRs: no). */
  readonly allowUnconditionalUpdate: boolean;
  /** Whether DELETE answers with the deleted object instead of a Success Status. */
  readonly returnDeletedObject: boolean;
  /** Set for custom resources. */
  readonly custom?: CustomResourceInfo;
  /** Kind-specific write steps beyond the generic pipeline (e.g. CustomResourceDefinitions). */
  readonly strategy?: WriteStrategy;
  /** Created objects are answered, never stored (reviews such as TokenReview): create is the only verb. */
  readonly virtual?: boolean;
  /** Set when the bucket holds another API's shape (events.k8s.io events are stored as core events). */
  readonly convert?: StorageConversion;
}

/** Converts between a resource's served shape and the shape its bucket stores; both are idempotent. */
export interface StorageConversion {
  readonly toStored: (obj: Record<string, unknown>) => Record<string, unknown>;
  readonly fromStored: (obj: Record<string, unknown>) => Record<string, unknown>;
  /**
   * Set when both shapes are versions of one kind (autoscaling/v1 of a v2-stored HPA), not two APIs
   * of one object (core and events.k8s.io events): managed fields of either version are kept, and
   * Tables print the stored version, as upstream prints the internal object.
   */
  readonly betweenVersions?: boolean;
}

/** What a strategy may read while it prepares an object: the store (allocations) and the clock. */
export interface StrategyContext {
  readonly store: Pick<MvccStore, "get" | "list">;
  readonly now: () => number;
  /** Who a bearer token belongs to, as the server authenticates requests (undefined: nobody). */
  readonly authenticateToken?: (token: string) => UserInfo | undefined;
  /** Whether the server's authorizer lets `user` do `access` (the access reviews). */
  readonly authorizes?: (user: UserInfo, access: AccessRequest) => boolean;
}

/** Kind-specific steps of the write pipeline, like upstream's registry strategies (registry/). */
export interface WriteStrategy {
  /** The kind's defaults, applied in place when a request is decoded (before admission's validation). */
  readonly defaults?: (obj: Record<string, unknown>) => void;
  /** Adjusts a new object after defaulting (status reset, allocations, who asked). */
  readonly prepareCreate?: (
    obj: Record<string, unknown>,
    ctx: StrategyContext,
    user: UserInfo | undefined,
  ) => void;
  /** prepareCreate allocates from what is stored: the create commits in the same turn, never paused. */
  readonly allocates?: boolean;
  /** Adjusts a new object after it passed validation (upstream's Canonicalize). */
  readonly canonicalize?: (obj: Record<string, unknown>) => void;
  /** Adjusts an update after the status/main split; `subresource` is "status" for /status writes. */
  readonly prepareUpdate?: (
    next: Record<string, unknown>,
    old: Record<string, unknown>,
    subresource: string | undefined,
  ) => void;
  /**
   * Metadata fields a /status write leaves as stored (upstream's status strategies differ: most
   * keep the labels and annotations the write sends, some reset them all, Deployments only labels).
   */
  readonly statusResetsMetadata?: readonly string[];
  /** Field errors of the kind's own validation; `old` is set on updates, `subresource` on /status writes. */
  readonly validate?: (
    obj: Record<string, unknown>,
    old: Record<string, unknown> | undefined,
    subresource?: string,
  ) => FieldError[];
  /**
   * The same validation with pauses (`yield`) between parts whose cost grows with the object, for
   * kinds whose objects can be costly to check (CRD schemas); a large write runs them in separate
   * turns of the event loop (api/steps.ts). When set, it is what runs.
   */
  readonly validateSteps?: (
    obj: Record<string, unknown>,
    old: Record<string, unknown> | undefined,
    subresource?: string,
  ) => Steps<FieldError[]>;
}

/** Where a custom resource keeps the values its scale subresource exposes (CRD `subresources.scale`). */
export interface ScalePaths {
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  readonly labelSelectorPath?: string;
}

export interface CustomResourceInfo {
  /** The CRD's name, `<plural>.<group>`. */
  readonly crdName: string;
  readonly storageVersion: string;
  /**
   * Validates an object of this version (`old` on updates); returns field errors (empty when valid),
   * later when its CEL rules are expensive (they run on a worker thread).
   */
  readonly validate: (obj: unknown, old?: unknown) => FieldError[] | Promise<FieldError[]>;
  /** Applies structural-schema defaults in place. */
  readonly applyDefaults: (obj: Record<string, unknown>) => void;
  readonly printerColumns: readonly PrinterColumn[];
  readonly selectableFields: readonly string[];
  /** The version's openAPIV3Schema, for OpenAPI documents and unknown-field reports. */
  readonly schema?: Readonly<Record<string, unknown>>;
  /** Set when the version declares the scale subresource. */
  readonly scale?: ScalePaths;
  /** Pruning and defaulting of stored objects as they are read (the schema may have changed since). */
  readonly onRead?: (obj: Record<string, unknown>) => Record<string, unknown>;
  /** Converts objects between the CRD's versions (`spec.conversion`); unset: apiVersion is rewritten. */
  readonly conversion?: CustomConversion;
}

/** A conversion that failed: `detail` is upstream's "conversion webhook for <gvk> …" text. */
export class ConversionError extends Error {
  constructor(
    readonly detail: string,
    /** The first object that was to be converted (its key and revision go into the Status). */
    readonly object: Record<string, unknown>,
  ) {
    super(detail);
  }
}

/**
 * A CRD's conversion between its versions. `convert` leaves objects already in `apiVersion` as they
 * are and answers at once when it needs no webhook; otherwise it answers a promise (the webhook's
 * call) that rejects with a StatusError.
 */
export interface CustomConversion {
  /** The strategy is Webhook: converting an object of another version is asynchronous. */
  readonly byWebhook: boolean;
  readonly convert: (
    objects: readonly Record<string, unknown>[],
    apiVersion: string,
  ) => Record<string, unknown>[] | Promise<Record<string, unknown>[]>;
}

export interface PrinterColumn {
  readonly name: string;
  readonly type: string;
  readonly format?: string;
  readonly description?: string;
  readonly priority?: number;
  readonly jsonPath: string;
}

export function apiVersionOf(r: { group: string; version: string }): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}

export function hasStatus(r: ServedResource): boolean {
  return r.subresources.has("status");
}
