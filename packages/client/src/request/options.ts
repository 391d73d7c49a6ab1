/**
 * Options of each verb, as callers write them, and their pure translation into query parameters.
 * Names follow the API's query parameters so the Kubernetes documentation applies unchanged.
 */
import type { QueryValue } from "@kubesdk/transport";
import { ClientError } from "../errors.js";

/** How the server treats fields it does not know (`fieldValidation`). */
export type FieldValidation = "Strict" | "Warn" | "Ignore";
/** How dependents are deleted (`propagationPolicy`). */
export type PropagationPolicy = "Orphan" | "Background" | "Foreground";
/** How `resourceVersion` is interpreted on a list or streaming watch. */
export type ResourceVersionMatch = "Exact" | "NotOlderThan";
/** A label selector as text (`app=web,tier!=db`) or as equality requirements (`{ app: "web" }`). */
export type LabelSelector = string | Readonly<Record<string, string>>;
/** A field selector as text (`metadata.name=web,status.phase!=Failed`) or as equalities (`{ "metadata.name": "web" }`). */
export type FieldSelector = string | Readonly<Record<string, string>>;

/** The namespace of a namespaced resource; the client's default namespace when left out. */
export interface NamespaceOption {
  readonly namespace?: string;
}

export interface GetOptions extends NamespaceOption {
  readonly resourceVersion?: string;
}

/** Which objects of a collection: selectors, and for namespaced resources whether to span all namespaces. */
export interface SelectionOptions extends NamespaceOption {
  /** List or watch across every namespace (ignores the default namespace). */
  readonly allNamespaces?: boolean;
  readonly labelSelector?: LabelSelector;
  readonly fieldSelector?: FieldSelector;
}

export interface ListOptions extends SelectionOptions {
  /** Page size; the answer's `metadata.continue` fetches the next page. */
  readonly limit?: number;
  readonly continue?: string;
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: ResourceVersionMatch;
  readonly timeoutSeconds?: number;
}

export interface WatchOptions extends SelectionOptions {
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: ResourceVersionMatch;
  readonly timeoutSeconds?: number;
  readonly allowWatchBookmarks?: boolean;
  /**
   * Streaming list: the current state as ADDED events, then a BOOKMARK marking its end. Implies
   * `allowWatchBookmarks: true` and `resourceVersionMatch: "NotOlderThan"`, which the server requires.
   */
  readonly sendInitialEvents?: boolean;
}

/** Options of create, replace and patch. */
export interface WriteOptions extends NamespaceOption {
  /** Run the request without persisting anything (`dryRun=All`). */
  readonly dryRun?: boolean;
  /** Name recorded in managedFields; required for server-side apply. */
  readonly fieldManager?: string;
  readonly fieldValidation?: FieldValidation;
}

export type CreateOptions = WriteOptions;
export type ReplaceOptions = WriteOptions;

export interface PatchOptions extends WriteOptions {
  /** Server-side apply only: take ownership of fields other managers own. */
  readonly force?: boolean;
}

/** Deletion only proceeds when the stored object still has this uid and/or resourceVersion. */
export interface Preconditions {
  readonly uid?: string;
  readonly resourceVersion?: string;
}

export interface DeleteOptions extends NamespaceOption {
  readonly dryRun?: boolean;
  readonly gracePeriodSeconds?: number;
  readonly propagationPolicy?: PropagationPolicy;
  readonly preconditions?: Preconditions;
}

export interface DeleteCollectionOptions
  extends Omit<DeleteOptions, "namespace">,
    Omit<ListOptions, "continue" | "limit"> {}

type Query = Record<string, QueryValue>;

/** Selector text for either form of a {@link LabelSelector} or {@link FieldSelector}; "" means none. */
export function formatLabelSelector(selector: LabelSelector | FieldSelector | undefined): string | undefined {
  const text =
    selector === undefined || typeof selector === "string"
      ? selector
      : Object.entries(selector)
          .map(([key, value]) => `${key}=${value}`)
          .join(",");
  return text === "" ? undefined : text;
}

function checkCount(name: string, value: number | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < min) {
    throw new ClientError("INVALID_OPTION", `${name} must be an integer ≥ ${min}, got ${String(value)}`);
  }
  return value;
}

function flag(value: boolean | undefined): "true" | undefined {
  return value === true ? "true" : undefined;
}

function dryRun(value: boolean | undefined): "All" | undefined {
  return value === true ? "All" : undefined;
}

/** Query of a list (also the selection part of deletecollection). */
export function listQuery(options: Omit<ListOptions, "namespace" | "allNamespaces">): Query {
  return {
    labelSelector: formatLabelSelector(options.labelSelector),
    fieldSelector: formatLabelSelector(options.fieldSelector),
    limit: checkCount("limit", options.limit, 1),
    continue: options.continue,
    resourceVersion: options.resourceVersion,
    resourceVersionMatch: options.resourceVersionMatch,
    timeoutSeconds: checkCount("timeoutSeconds", options.timeoutSeconds, 0),
  };
}

/** Query of a watch; `watch=true` first so the request reads like kubectl's. */
export function watchQuery(options: WatchOptions): Query {
  const streaming = options.sendInitialEvents === true;
  if (streaming && options.allowWatchBookmarks === false) {
    throw new ClientError("INVALID_OPTION", "sendInitialEvents needs allowWatchBookmarks");
  }
  if (
    streaming &&
    options.resourceVersionMatch !== undefined &&
    options.resourceVersionMatch !== "NotOlderThan"
  ) {
    throw new ClientError("INVALID_OPTION", 'sendInitialEvents needs resourceVersionMatch "NotOlderThan"');
  }
  return {
    watch: "true",
    labelSelector: formatLabelSelector(options.labelSelector),
    fieldSelector: formatLabelSelector(options.fieldSelector),
    resourceVersion: options.resourceVersion,
    resourceVersionMatch: streaming ? "NotOlderThan" : options.resourceVersionMatch,
    timeoutSeconds: checkCount("timeoutSeconds", options.timeoutSeconds, 0),
    allowWatchBookmarks: streaming ? "true" : flag(options.allowWatchBookmarks),
    sendInitialEvents: flag(options.sendInitialEvents),
  };
}

/** Query of create and replace. */
export function writeQuery(options: WriteOptions): Query {
  return {
    dryRun: dryRun(options.dryRun),
    fieldManager: options.fieldManager,
    fieldValidation: options.fieldValidation,
  };
}

/** Query of a patch; `force` is only meaningful for apply and is checked by the caller. */
export function patchQuery(options: PatchOptions): Query {
  return { ...writeQuery(options), force: flag(options.force) };
}

/**
 * DeleteOptions go in the query, except when preconditions are set: they have no query form, and
 * the apiserver reads no delete option from the query once a body is present, so then every option
 * moves into the body.
 */
export function deleteParts(options: DeleteOptions): { query: Query; body?: Record<string, unknown> } {
  const gracePeriodSeconds = checkCount("gracePeriodSeconds", options.gracePeriodSeconds, 0);
  const pre = options.preconditions;
  if (pre === undefined || (pre.uid === undefined && pre.resourceVersion === undefined)) {
    return {
      query: {
        dryRun: dryRun(options.dryRun),
        gracePeriodSeconds,
        propagationPolicy: options.propagationPolicy,
      },
    };
  }
  const body: Record<string, unknown> = { kind: "DeleteOptions", apiVersion: "meta.k8s.io/v1" };
  if (options.dryRun === true) body.dryRun = ["All"];
  if (gracePeriodSeconds !== undefined) body.gracePeriodSeconds = gracePeriodSeconds;
  if (options.propagationPolicy !== undefined) body.propagationPolicy = options.propagationPolicy;
  body.preconditions = {
    ...(pre.uid !== undefined ? { uid: pre.uid } : {}),
    ...(pre.resourceVersion !== undefined ? { resourceVersion: pre.resourceVersion } : {}),
  };
  return { query: {}, body };
}
