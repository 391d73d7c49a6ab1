/**
 * Reflector: keeps a sink in step with one collection on the API server, as one explicit state
 * machine. Each state is a value; `#step` performs the state's I/O and returns the next state.
 *
 *   Empty ─(list+watch)─▶ InitPage ─(continue)─▶ InitPage … ─▶ InitListed ─▶ Watching ─┐
 *     │                                                                      ▲         │
 *     └─(streaming list)─▶ StreamingList ──(end bookmark, same stream)───────┘         │
 *   Watching / StreamingList end ─(decideAfterWatch)─▶ Watching | Empty | Backoff ◀────┘
 *   Backoff ─(delay)─▶ the state it was given;  any state ─(signal)─▶ Stopped
 *
 * The decisions (which resourceVersion to list at, when to back off) live in reactions.ts.
 */
import type { KubernetesObject } from "@kubesdk/models";
import type { WatchEvent, WatchStream } from "@kubesdk/transport";
import type { ErrorContext, ListReason } from "./events.js";
import { InitialEvents } from "./initial-events.js";
import { intake, Rejected } from "./intake.js";
import type { ListerWatcher, ListerWatcherPage } from "./list-watcher.js";
import { isInitialEventsEnd, resourceVersionOf } from "./object-meta.js";
import { nextPageLimit, PageRequest, type PageSizing } from "./page-request.js";
import {
  decideAfterListFailure,
  decideAfterWatch,
  type ListPlan,
  planFor,
  type WatchOutcome,
  wasHealthy,
} from "./reactions.js";
import {
  type ReflectorConfig,
  type ReflectorEmit,
  type ReflectorSink,
  type ReflectorState,
  type StateOf,
  stateAfterWatch,
} from "./reflector-state.js";
import { sleep } from "./sleep.js";
import { readWatch } from "./watch-reader.js";

export type { ReflectorConfig, ReflectorEmit, ReflectorSink, ReflectorState } from "./reflector-state.js";

/** What an asynchronous step of the state machine resolves to: the next state. */
type Next<T> = Promise<ReflectorState<T>>;

const STOPPED = { kind: "Stopped" } as const;

export class Reflector<T extends KubernetesObject> {
  readonly #config: ReflectorConfig<T>;
  readonly #sink: ReflectorSink<T>;
  readonly #emit: ReflectorEmit;
  #state: ReflectorState<T> = { kind: "Empty", resourceVersion: undefined, reason: "initial" };
  #lastResourceVersion: string | undefined;
  #listedOnce = false;
  #streaming: boolean;
  /** The list in progress follows a healthy watch (see decideAfterListFailure). */
  #afterHealthyWatch = false;
  readonly #pageSizing: PageSizing;

  constructor(config: ReflectorConfig<T>, sink: ReflectorSink<T>, emit: ReflectorEmit) {
    this.#config = config;
    const { pageSize, pageBytes } = config;
    this.#pageSizing = (limit, bodyBytes) => nextPageLimit(limit, bodyBytes, pageSize ?? limit, pageBytes);
    this.#sink = sink;
    this.#emit = emit;
    this.#streaming = config.streamingList;
  }

  /** The current state's kind. */
  get state(): ReflectorState<T>["kind"] {
    return this.#state.kind;
  }

  /** The last resourceVersion seen (list, event or bookmark). */
  get lastResourceVersion(): string | undefined {
    return this.#lastResourceVersion;
  }

  /** Runs until the signal aborts. Never rejects: failures are reported and retried. */
  async run(signal: AbortSignal): Promise<void> {
    let state: ReflectorState<T> = this.#state;
    while (state.kind !== "Stopped") {
      this.#state = state;
      state = signal.aborted ? STOPPED : await this.#step(state, signal);
    }
    this.#state = state;
  }

  #step(s: ReflectorState<T>, signal: AbortSignal): Next<T> | ReflectorState<T> {
    switch (s.kind) {
      case "Empty":
        return this.#empty(s);
      case "InitPage":
        return this.#listPage(s, signal);
      case "InitListed":
        return this.#listed(s);
      case "StreamingList":
        return this.#streamingList(s, signal);
      case "Watching":
        return this.#watch(s, signal);
      case "Backoff":
        return this.#wait(s, signal);
      case "Stopped":
        return s;
    }
  }

  #empty(s: StateOf<T, "Empty">): ReflectorState<T> {
    if (s.reason !== "initial")
      this.#emit("relist", { reason: s.reason, resourceVersion: s.resourceVersion });
    if (this.#streaming)
      return { kind: "StreamingList", resourceVersion: s.resourceVersion, reason: s.reason };
    return this.#firstPage(planFor(s.resourceVersion, this.#config.pageSize), s.reason);
  }

  #firstPage(plan: ListPlan, reason: ListReason): ReflectorState<T> {
    return {
      kind: "InitPage",
      plan,
      reason,
      continueToken: undefined,
      items: [],
      pages: 0,
      startedAt: now(),
    };
  }

  async #listPage(s: StateOf<T, "InitPage">, signal: AbortSignal): Next<T> {
    const { plan } = s;
    if (s.pages === 0)
      this.#emit("listStart", {
        reason: s.reason,
        resourceVersion: plan.resourceVersion,
        limit: plan.limit,
        streaming: false,
      });
    const request =
      s.prefetched ??
      new PageRequest(
        this.#config.listerWatcher,
        s.continueToken !== undefined
          ? { continue: s.continueToken, limit: plan.limit }
          : { resourceVersion: plan.resourceVersion, limit: plan.limit },
        signal,
        this.#pageSizing,
      );
    let page: ListerWatcherPage<T>;
    try {
      page = await request.page();
    } catch (err) {
      return this.#afterListFailure(err, s, signal);
    }
    const more = page.continue !== undefined;
    // Usually asked for already (while this page was decoded); else now, to travel while this one is taken in.
    const prefetched = request.next(page);
    for (const raw of page.items) {
      const obj = this.#accept(raw);
      if (obj !== undefined) s.items.push(obj);
    }
    this.#emit("listPage", {
      page: s.pages + 1,
      items: page.items.length,
      total: s.items.length,
      more,
      ...(page.remainingItemCount !== undefined ? { remainingItemCount: page.remainingItemCount } : {}),
      streaming: false,
    });
    if (more) return { ...s, continueToken: page.continue, prefetched, pages: s.pages + 1 };
    this.#emit("listDone", {
      items: s.items.length,
      pages: s.pages + 1,
      resourceVersion: page.resourceVersion,
      durationMs: now() - s.startedAt,
      streaming: false,
    });
    return { kind: "InitListed", items: s.items, resourceVersion: page.resourceVersion };
  }

  #afterListFailure(err: unknown, s: StateOf<T, "InitPage">, signal: AbortSignal): ReflectorState<T> {
    const r = decideAfterListFailure(
      err,
      s.plan,
      s.continueToken !== undefined,
      signal.aborted,
      this.#config.pageSize,
      this.#afterHealthyWatch,
    );
    this.#afterHealthyWatch = false;
    if (r.next === "stop") return STOPPED;
    if (r.wait === "none") {
      this.#emit("relist", { reason: "continue-expired", resourceVersion: r.plan.resourceVersion });
      return this.#firstPage(r.plan, "continue-expired");
    }
    this.#report(err, { during: "list", willRetry: true });
    return this.#backoff("list-failed", this.#firstPage(r.plan, s.reason), r.retryAfterMs);
  }

  #listed(s: StateOf<T, "InitListed">): ReflectorState<T> {
    this.#afterHealthyWatch = false;
    this.#replace(s.items, s.resourceVersion);
    return { kind: "Watching", resourceVersion: s.resourceVersion };
  }

  async #streamingList(s: StateOf<T, "StreamingList">, signal: AbortSignal): Next<T> {
    this.#emit("listStart", {
      reason: s.reason,
      resourceVersion: s.resourceVersion,
      limit: undefined,
      streaming: true,
    });
    const outcome = await this.#openAndConsume(
      {
        resourceVersion: s.resourceVersion,
        allowWatchBookmarks: true,
        sendInitialEvents: true,
        resourceVersionMatch: "NotOlderThan",
      },
      true,
      signal,
    );
    return this.#afterWatch(outcome, true);
  }

  async #watch(s: StateOf<T, "Watching">, signal: AbortSignal): Next<T> {
    const outcome = await this.#openAndConsume(
      { resourceVersion: s.resourceVersion, allowWatchBookmarks: true },
      false,
      signal,
    );
    return this.#afterWatch(outcome, false);
  }

  async #wait(s: StateOf<T, "Backoff">, signal: AbortSignal): Next<T> {
    this.#emit("backoff", {
      delayMs: s.delayMs,
      reason: s.reason,
      ...(s.retryAfterMs !== undefined ? { retryAfterMs: s.retryAfterMs } : {}),
    });
    return (await sleep(s.delayMs, signal)) ? s.then : STOPPED;
  }

  #afterWatch(outcome: WatchOutcome, streaming: boolean): ReflectorState<T> {
    const d = decideAfterWatch(outcome, this.#config.minWatchDurationMs);
    this.#emit("watchEnd", {
      reason: d.reason,
      events: outcome.events,
      durationMs: outcome.durationMs,
      streaming,
      ...(outcome.error !== undefined ? { error: outcome.error } : {}),
    });
    if (d.report)
      this.#report(outcome.error, { during: outcome.initialPending ? "list" : "watch", willRetry: true });
    const healthy = wasHealthy(outcome, this.#config.minWatchDurationMs);
    if (healthy) this.#config.backoff.reset();
    const r = d.reaction;
    this.#afterHealthyWatch = healthy && r.next === "list";
    if (r.next === "stop") return STOPPED;
    if (r.next === "fallback-to-list") {
      this.#streaming = false;
      return {
        kind: "Empty",
        resourceVersion: this.#lastResourceVersion,
        reason: "streaming-list-unsupported",
      };
    }
    const next = stateAfterWatch<T>(r, this.#lastResourceVersion, d.reason);
    return r.wait === "backoff" ? this.#backoff(d.reason, next, r.retryAfterMs) : next;
  }

  #backoff(reason: string, then: ReflectorState<T>, retryAfterMs?: number): ReflectorState<T> {
    const delayMs = Math.max(this.#config.backoff.next(), retryAfterMs ?? 0);
    return { kind: "Backoff", delayMs, reason, retryAfterMs, then };
  }

  /** Opens one watch and applies its events until it ends; a streaming list buffers until its end bookmark. */
  async #openAndConsume(
    query: Parameters<ListerWatcher<T>["watch"]>[0],
    streamingList: boolean,
    signal: AbortSignal,
  ): Promise<WatchOutcome> {
    const { min, max } = this.#config.watchTimeoutSeconds;
    const timeoutSeconds = min + Math.floor(this.#config.random() * (max - min + 1));
    this.#emit("watchStart", {
      resourceVersion: query.resourceVersion,
      timeoutSeconds,
      streaming: streamingList,
    });
    const startedAt = now();
    const consumer = {
      initial: streamingList
        ? new InitialEvents<T>(this.#config.pageSize ?? 500, (info) => this.#emit("listPage", info))
        : undefined,
      startedAt,
    };
    let events = 0;
    let error: unknown;
    let stream: WatchStream<T> | undefined;
    const onEvent = (event: WatchEvent<T>) => {
      events++;
      return this.#onEvent(event, consumer);
    };
    try {
      stream = this.#config.listerWatcher.watch(
        { ...query, timeoutSeconds },
        { signal, idleTimeoutMs: this.#config.idleTimeoutMs },
      );
      await readWatch(stream, signal, onEvent);
    } catch (err) {
      error = err;
    } finally {
      stream?.close();
    }
    return {
      error,
      events,
      durationMs: now() - startedAt,
      initialPending: consumer.initial !== undefined,
      stopped: signal.aborted,
    };
  }

  /**
   * Applies one watch event (a streaming list's initial ones are buffered until its end bookmark);
   * true when the sink asks for a pause (see {@link ReflectorSink.apply}).
   */
  #onEvent(event: WatchEvent<T>, c: { initial: InitialEvents<T> | undefined; startedAt: number }): boolean {
    if (event.type === "BOOKMARK") {
      if (this.#bookmark(event.object, c.initial, c.startedAt)) c.initial = undefined;
      return false;
    }
    const obj = this.#accept(event.object);
    if (obj === undefined) return false;
    if (c.initial !== undefined) {
      c.initial.add(event.type, obj);
      return false;
    }
    const rv = resourceVersionOf(obj);
    if (rv !== undefined) this.#lastResourceVersion = rv;
    return this.#sink.apply(event.type, obj, rv) === true;
  }

  /** A bookmark: progress when watching; the end of the initial state (true) during a streaming list. */
  #bookmark(object: T, initial: InitialEvents<T> | undefined, startedAt: number): boolean {
    const rv = resourceVersionOf(object);
    if (initial === undefined) {
      if (rv !== undefined) {
        this.#lastResourceVersion = rv;
        this.#sink.bookmark(rv);
      }
      return false;
    }
    if (!isInitialEventsEnd(object)) return false;
    this.#finishInitial(initial, rv ?? this.#lastResourceVersion ?? "", startedAt);
    return true;
  }

  #finishInitial(initial: InitialEvents<T>, resourceVersion: string, startedAt: number): void {
    const { items, pages } = initial.finish();
    this.#emit("listDone", {
      items: items.length,
      pages,
      resourceVersion,
      durationMs: now() - startedAt,
      streaming: true,
    });
    this.#replace(items, resourceVersion);
  }

  #replace(items: readonly T[], resourceVersion: string): void {
    this.#sink.replace(items, resourceVersion, !this.#listedOnce);
    this.#listedOnce = true;
    this.#lastResourceVersion = resourceVersion;
  }

  /** Admits one object from the server (see intake.ts); a rejected one is reported and skipped. */
  #accept(raw: unknown): T | undefined {
    const r = intake<T>(raw, this.#config.expectedKind, this.#config.transform);
    if (!(r instanceof Rejected)) return r;
    this.#emit("error", r.error, r.context);
    return undefined;
  }

  #report(err: unknown, context: ErrorContext): void {
    this.#emit("error", err instanceof Error ? err : new Error(String(err)), context);
  }
}

function now(): number {
  return performance.now();
}
