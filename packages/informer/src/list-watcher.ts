/**
 * ListerWatcher: the two calls a reflector needs (list one page, open one watch), and the
 * implementation over HttpTransport for any resource path, built-in or custom.
 */
import type { KubernetesObject } from "@kubesdk/models";
import type { HttpTransport, WatchEvent, WatchStream } from "@kubesdk/transport";
import { InvalidListResponseError } from "./errors.js";
import {
  type CollectionScope,
  type ListQuery,
  listRequest,
  type WatchQuery,
  watchRequest,
} from "./requests.js";
import { collectionPath, type ResourceTarget, resourceApiVersion } from "./resource.js";

/** One page of a list. */
export interface ListPage<T> {
  readonly items: T[];
  /** The revision of the snapshot the page was read from. */
  readonly resourceVersion: string;
  /** Token for the next page; undefined on the last page. */
  readonly continue?: string;
  readonly remainingItemCount?: number;
}

/** Per-watch call options. */
export interface WatchCallOptions {
  readonly signal: AbortSignal;
  /** No bytes for this long ends the stream with TimeoutError IDLE_TIMEOUT (0: never). */
  readonly idleTimeoutMs: number;
}

/**
 * Lists and watches one collection. Failures are thrown as the transport's typed errors
 * (ApiError, ConnectionError, TimeoutError, WatchDecodeError): the reflector decides what to do.
 */
export interface ListerWatcher<T> {
  list(query: ListQuery, options: { readonly signal: AbortSignal }): Promise<ListPage<T>>;
  watch(query: WatchQuery, options: WatchCallOptions): WatchStream<T>;
}

/** Options of {@link HttpListerWatcher}. */
export interface HttpListerWatcherOptions {
  readonly resource: ResourceTarget;
  /** Only this namespace; all namespaces when undefined. */
  readonly namespace?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  /** Cache PartialObjectMetadata (metadata only) instead of whole objects. */
  readonly metadataOnly?: boolean;
}

const PARTIAL_KIND = "PartialObjectMetadata";
const META_API_VERSION = "meta.k8s.io/v1";

/**
 * Lists and watches over HTTP. Requests are sent without transport retries: retrying (and backing
 * off, and choosing the resourceVersion to retry at) is the reflector's job.
 */
export class HttpListerWatcher<T extends KubernetesObject = KubernetesObject> implements ListerWatcher<T> {
  readonly #transport: HttpTransport;
  readonly #scope: CollectionScope;
  readonly #normalize: (obj: unknown) => unknown;

  constructor(transport: HttpTransport, options: HttpListerWatcherOptions) {
    this.#transport = transport;
    this.#scope = {
      path: collectionPath(options.resource, options.namespace),
      ...(options.labelSelector !== undefined ? { labelSelector: options.labelSelector } : {}),
      ...(options.fieldSelector !== undefined ? { fieldSelector: options.fieldSelector } : {}),
      metadataOnly: options.metadataOnly === true,
    };
    this.#normalize = normalizer(options.resource, options.metadataOnly === true);
  }

  async list(query: ListQuery, options: { readonly signal: AbortSignal }): Promise<ListPage<T>> {
    const res = await this.#transport.requestJson<unknown>(listRequest(this.#scope, query), {
      signal: options.signal,
      retries: false,
    });
    const body = res.body as { items?: unknown; metadata?: Record<string, unknown> } | null;
    if (typeof body !== "object" || body === null || !Array.isArray(body.items))
      throw new InvalidListResponseError(`the list response of ${this.#scope.path} has no items array`);
    const meta = body.metadata ?? {};
    if (typeof meta.resourceVersion !== "string" || meta.resourceVersion === "")
      throw new InvalidListResponseError(
        `the list response of ${this.#scope.path} has no metadata.resourceVersion`,
      );
    const next = typeof meta.continue === "string" && meta.continue !== "" ? meta.continue : undefined;
    const remaining = typeof meta.remainingItemCount === "number" ? meta.remainingItemCount : undefined;
    return {
      items: body.items.map(this.#normalize) as T[],
      resourceVersion: meta.resourceVersion,
      ...(next !== undefined ? { continue: next } : {}),
      ...(remaining !== undefined ? { remainingItemCount: remaining } : {}),
    };
  }

  watch(query: WatchQuery, options: WatchCallOptions): WatchStream<T> {
    const stream = this.#transport.watch<T>(watchRequest(this.#scope, query), {
      signal: options.signal,
      retries: false,
      idleTimeoutMs: options.idleTimeoutMs,
    });
    const normalize = this.#normalize;
    return mapWatchStream(stream, (event) =>
      event.type === "BOOKMARK" ? event : { type: event.type, object: normalize(event.object) as T },
    );
  }
}

/**
 * Items of a list carry no kind on real servers (the list has it), and a metadata-only request may be
 * answered with whole objects; both are made uniform here. Objects of another kind are left as they
 * are, so the reflector can report them.
 */
function normalizer(resource: ResourceTarget, metadataOnly: boolean): (obj: unknown) => unknown {
  const apiVersion = resourceApiVersion(resource);
  return (obj) => {
    if (typeof obj !== "object" || obj === null) return obj;
    const o = obj as { kind?: unknown; apiVersion?: unknown; metadata?: unknown };
    if (metadataOnly) {
      if (o.kind === PARTIAL_KIND) {
        o.apiVersion ??= META_API_VERSION;
        return o;
      }
      if (o.kind !== undefined && o.kind !== resource.kind) return o;
      return { kind: PARTIAL_KIND, apiVersion: META_API_VERSION, metadata: o.metadata };
    }
    if (o.kind === undefined) {
      o.kind = resource.kind;
      o.apiVersion ??= apiVersion;
    }
    return o;
  };
}

/** A WatchStream whose events pass through `map`; closing it closes the source. */
export function mapWatchStream<A, B>(
  source: WatchStream<A>,
  map: (event: WatchEvent<A>) => WatchEvent<B>,
): WatchStream<B> {
  const mapped: WatchStream<B> = {
    async next() {
      const r = await source.next();
      return r.done ? { done: true, value: undefined } : { done: false, value: map(r.value) };
    },
    async return() {
      await source.return?.();
      return { done: true, value: undefined };
    },
    async throw(err?: unknown) {
      source.close();
      throw err;
    },
    close() {
      source.close();
    },
    [Symbol.asyncIterator]() {
      return mapped;
    },
  };
  return mapped;
}
