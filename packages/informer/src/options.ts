/** Every informer setting in one object, with documented defaults and checks that name the bad option. */
import type { Encoding } from "@kubesdk/client";
import type { KubernetesObject } from "@kubesdk/models";
import { type BackoffOptions, DEFAULT_BACKOFF } from "./backoff.js";
import { InvalidInformerOptionError } from "./errors.js";
import type { Indexers } from "./index-func.js";
import { byNamespace, NAMESPACE_INDEX } from "./indexers.js";
import type { ListerWatcher } from "./list-watcher.js";
import type { InformerSelection } from "./selection.js";

/** Options of an {@link Informer}; all optional. */
export interface InformerOptions<T extends KubernetesObject = KubernetesObject> extends InformerSelection {
  /**
   * Wire encoding of lists and watches. Default: protobuf where the server offers it (built-in
   * kinds; requests accept JSON too, and custom resources always get it) when the client has a
   * `protobufCodec` (`kubesdk/protobuf`), JSON without one, unless the client's
   * encoding was chosen — by the Kube's `protobuf` option or `withEncoding()` — which then
   * applies. An Informer made on a metadata-only client (`metadataOnly()`) uses that client's.
   */
  readonly encoding?: Encoding;
  /** Replaces the client's lists and watches (tests inject faults or canned pages through it). */
  readonly listerWatcher?: ListerWatcher<T>;

  /**
   * How the initial state is fetched (default "list"):
   * - "list": paginated LIST of the most recent state (resourceVersion unset, `limit` = pageSize),
   *   then WATCH from the list's resourceVersion;
   * - "stream": a streaming list (WATCH with sendInitialEvents=true), falling back to "list" when the
   *   server rejects it with 422.
   */
  readonly initialList?: "list" | "stream";
  /** Objects in the first page of a list (default 500; 0 = one unpaged list). */
  readonly pageSize?: number;
  /**
   * Later pages are sized for about this many bytes of response, judged from the page before:
   * at most twice as many objects as it, never fewer than `pageSize` (default 4 MiB; 0 keeps every
   * page at `pageSize`). Fewer, larger pages cost kube-apiserver less (docs/performance.md).
   */
  readonly pageBytes?: number;

  /** Window of the random `timeoutSeconds` sent with each watch, inclusive (default 300–599). */
  readonly watchTimeoutSeconds?: { readonly min: number; readonly max: number };
  /**
   * A watch that receives no bytes (not even a bookmark) for this long is treated as dead and
   * replaced by a new watch at the same resourceVersion (default 180 000 ms, three times the
   * server's bookmark period; 0 = never).
   */
  readonly idleTimeoutMs?: number;
  /** A watch ending sooner than this without any event counts as a failure (default 1000 ms). */
  readonly minWatchDurationMs?: number;
  /** Backoff after failures (default 800 ms doubling to 30 s, jitter [d, 2d), reset after 2 min). */
  readonly backoff?: Partial<BackoffOptions>;

  /** Runs once on every object received, before it reaches the store (e.g. to drop managedFields). */
  readonly transform?: (obj: T) => T;
  /** Extra indexes, next to the default namespace index ("namespace"). */
  readonly indexers?: Indexers<T>;

  /** Default resync period of handlers in ms (default 0 = never). */
  readonly resyncPeriodMs?: number;
  /**
   * How far a handler may fall behind beyond one store's worth of notifications before its backlog
   * is dropped and it is brought up to date from the store (default 10 000). See HandlerQueue.
   */
  readonly maxPendingNotifications?: number;

  /** Random numbers in [0, 1) for timeouts and jitter (default Math.random; fix it in tests). */
  readonly random?: () => number;
}

/** Options after defaults and checks. */
export interface ResolvedOptions<T extends KubernetesObject> {
  readonly listerWatcher: ListerWatcher<T> | undefined;
  readonly initialList: "list" | "stream";
  readonly pageSize: number | undefined;
  readonly pageBytes: number;
  readonly watchTimeoutSeconds: { readonly min: number; readonly max: number };
  readonly idleTimeoutMs: number;
  readonly minWatchDurationMs: number;
  readonly backoff: BackoffOptions;
  readonly transform: ((obj: T) => T) | undefined;
  readonly indexers: Indexers<T>;
  readonly resyncPeriodMs: number;
  readonly maxPendingNotifications: number;
  readonly random: () => number;
}

export const INFORMER_DEFAULTS = {
  initialList: "list",
  pageSize: 500,
  pageBytes: 4 * 1024 * 1024,
  watchTimeoutSeconds: { min: 300, max: 599 },
  idleTimeoutMs: 180_000,
  minWatchDurationMs: 1000,
  resyncPeriodMs: 0,
  maxPendingNotifications: 10_000,
} as const;

export function resolveOptions<T extends KubernetesObject>(options: InformerOptions<T>): ResolvedOptions<T> {
  if (typeof options !== "object" || options === null)
    throw new InvalidInformerOptionError("options", "must be an object");
  const d = INFORMER_DEFAULTS;
  const pageSize = count("pageSize", options.pageSize ?? d.pageSize);
  const window = options.watchTimeoutSeconds ?? d.watchTimeoutSeconds;
  const min = count("watchTimeoutSeconds.min", window.min);
  const max = count("watchTimeoutSeconds.max", window.max);
  if (min < 1 || max < min)
    throw new InvalidInformerOptionError("watchTimeoutSeconds", `needs 1 ≤ min ≤ max (got ${min}–${max})`);
  const backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
  for (const key of Object.keys(DEFAULT_BACKOFF) as (keyof BackoffOptions)[])
    count(`backoff.${key}`, backoff[key], false);
  if (backoff.factor < 1) throw new InvalidInformerOptionError("backoff.factor", "must be at least 1");
  const initialList = options.initialList ?? d.initialList;
  if (initialList !== "list" && initialList !== "stream")
    throw new InvalidInformerOptionError("initialList", `must be "list" or "stream"`);
  for (const name of ["transform", "random"] as const) {
    if (options[name] !== undefined && typeof options[name] !== "function")
      throw new InvalidInformerOptionError(name, "must be a function");
  }
  const indexers: Indexers<T> = { [NAMESPACE_INDEX]: byNamespace, ...options.indexers };
  return {
    listerWatcher: options.listerWatcher,
    initialList,
    pageSize: pageSize === 0 ? undefined : pageSize,
    pageBytes: count("pageBytes", options.pageBytes ?? d.pageBytes),
    watchTimeoutSeconds: { min, max },
    idleTimeoutMs: count("idleTimeoutMs", options.idleTimeoutMs ?? d.idleTimeoutMs),
    minWatchDurationMs: count("minWatchDurationMs", options.minWatchDurationMs ?? d.minWatchDurationMs),
    backoff,
    transform: options.transform,
    indexers,
    resyncPeriodMs: count("resyncPeriodMs", options.resyncPeriodMs ?? d.resyncPeriodMs),
    maxPendingNotifications: count(
      "maxPendingNotifications",
      options.maxPendingNotifications ?? d.maxPendingNotifications,
    ),
    random: options.random ?? Math.random,
  };
}

/** A finite number ≥ 0 (an integer unless `integer` is false). */
export function count(option: string, value: unknown, integer = true): number {
  if (
    typeof value !== "number" ||
    !Number.isFinite(value) ||
    value < 0 ||
    (integer && !Number.isInteger(value))
  )
    throw new InvalidInformerOptionError(
      option,
      `must be a ${integer ? "whole " : ""}number ≥ 0 (got ${JSON.stringify(value)})`,
    );
  return value;
}
