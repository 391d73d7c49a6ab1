/**
 * EventRecorder: `events.k8s.io/v1` Events about objects, written in the background.
 *
 * Contract:
 * - `emit()` never blocks and never throws: it puts the event in a bounded buffer (default 1024
 *   distinct events); when the buffer is full the event is dropped and counted in `dropped`.
 * - Repeats of one event (same object, type, reason, action, note and related object) waiting in
 *   the buffer are merged. A repeat of an event written within `seriesWindowMs` (default 6 min)
 *   updates that Event's `series` (count, lastObservedTime) instead of creating a new Event.
 * - API writes pass a token bucket (default 1 per second, burst 25) and run one at a time; a
 *   failed write is logged and not retried.
 * - Given a fence (the reconcile request), an event is dropped (counted in `fenced`) when the fence
 *   has lapsed at `emit()` or when its write would go out: a controller that lost leadership
 *   writes no more Events about the work it may no longer do.
 */
import type { Kube, ResourceClient } from "@kubesdk/client";
import type { eventsV1, KubernetesObject } from "@kubesdk/models";
import { type Clock, systemClock } from "./clock.js";
import type { Fence } from "./fence.js";
import { TokenBucketRateLimiter } from "./rate-limiter.js";
import { consoleLogger, type Logger } from "./reconcile.js";
import { microTime } from "./time-format.js";

type Event = eventsV1.Event;

export interface EventInput {
  readonly type: "Normal" | "Warning";
  /** CamelCase reason, e.g. "Created". */
  readonly reason: string;
  /** What the controller did or failed to do, e.g. "CreateDeployment". */
  readonly action: string;
  readonly note?: string;
  readonly related?: KubernetesObject;
}

export interface EventRecorderOptions {
  readonly kube: Kube;
  readonly reportingController: string;
  readonly reportingInstance: string;
  readonly bufferSize?: number;
  readonly qps?: number;
  readonly burst?: number;
  readonly seriesWindowMs?: number;
  readonly clock?: Clock;
  readonly logger?: Logger;
}

interface Pending {
  readonly regarding: KubernetesObject;
  readonly input: EventInput;
  repeats: number;
  fence: Fence | undefined;
}

interface Written {
  readonly name: string;
  readonly namespace: string;
  count: number;
  lastSeen: number;
}

function reference(obj: KubernetesObject) {
  const m = obj.metadata ?? {};
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    name: m.name,
    ...(m.namespace ? { namespace: m.namespace } : {}),
    ...(m.uid ? { uid: m.uid } : {}),
    ...(m.resourceVersion ? { resourceVersion: m.resourceVersion } : {}),
  };
}

function passes(fence: Fence): boolean {
  try {
    fence.check();
    return true;
  } catch {
    return false;
  }
}

export class EventRecorder {
  readonly #o: EventRecorderOptions;
  readonly #events: ResourceClient<Event>;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #bucket: TokenBucketRateLimiter<string>;
  readonly #buffer = new Map<string, Pending>();
  readonly #written = new Map<string, Written>();
  readonly #idle: (() => void)[] = [];
  #draining = false;
  #closed = false;
  #dropped = 0;
  #fenced = 0;

  constructor(options: EventRecorderOptions) {
    this.#o = options;
    this.#events = options.kube.resource("events.k8s.io/v1", "Event");
    this.#clock = options.clock ?? systemClock;
    this.#logger = options.logger ?? consoleLogger;
    this.#bucket = new TokenBucketRateLimiter(options.qps ?? 1, options.burst ?? 25, this.#clock);
  }

  /** Events dropped because the buffer was full (or the recorder closed). */
  get dropped(): number {
    return this.#dropped;
  }

  /** Events dropped because their fence had lapsed. */
  get fenced(): number {
    return this.#fenced;
  }

  /** Distinct events waiting to be written. */
  get pending(): number {
    return this.#buffer.size;
  }

  emit(regarding: KubernetesObject, input: EventInput, fence?: Fence): void {
    if (fence !== undefined && !passes(fence)) {
      this.#fenced++;
      return;
    }
    const m = regarding.metadata ?? {};
    const key = JSON.stringify([
      m.uid ?? `${m.namespace}/${m.name}`,
      regarding.kind,
      input.type,
      input.reason,
      input.action,
      input.note ?? "",
      input.related?.metadata?.uid ?? input.related?.metadata?.name ?? "",
    ]);
    const waiting = this.#buffer.get(key);
    if (waiting !== undefined) {
      waiting.repeats++;
      waiting.fence = fence;
      return;
    }
    if (this.#closed || this.#buffer.size >= (this.#o.bufferSize ?? 1024)) {
      this.#dropped++;
      return;
    }
    this.#buffer.set(key, { regarding, input, repeats: 1, fence });
    if (!this.#draining) void this.#drain();
  }

  /** Resolves once every buffered event was written (or failed). */
  flush(): Promise<void> {
    if (!this.#draining && this.#buffer.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Stops accepting events and flushes the buffer. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.flush();
  }

  async #drain(): Promise<void> {
    this.#draining = true;
    while (this.#buffer.size > 0) {
      const [key, pending] = this.#buffer.entries().next().value as [string, Pending];
      this.#buffer.delete(key);
      const delay = this.#bucket.when(key);
      if (delay > 0) await new Promise<void>((r) => this.#clock.setTimer(r, delay));
      if (pending.fence !== undefined && !passes(pending.fence)) {
        this.#fenced++;
        continue;
      }
      try {
        await this.#write(key, pending);
      } catch (err) {
        this.#logger.error("writing an event failed", { reason: pending.input.reason, error: String(err) });
      }
    }
    this.#draining = false;
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  async #write(key: string, p: Pending): Promise<void> {
    const now = this.#clock.now();
    const at = microTime(this.#clock.wallTime());
    const seen = this.#written.get(key);
    if (seen !== undefined && now - seen.lastSeen < (this.#o.seriesWindowMs ?? 360_000)) {
      seen.count += p.repeats;
      seen.lastSeen = now;
      const series = { count: seen.count, lastObservedTime: at };
      await this.#events.patch(
        seen.name,
        { type: "merge", patch: { series } },
        { namespace: seen.namespace },
      );
      return;
    }
    const namespace = p.regarding.metadata?.namespace || "default";
    const name = `${p.regarding.metadata?.name ?? "event"}.${Date.now().toString(16)}${Math.floor(Math.random() * 0xffff).toString(16)}`;
    const event: Event = {
      metadata: { name, namespace },
      eventTime: at,
      type: p.input.type,
      reason: p.input.reason,
      action: p.input.action,
      ...(p.input.note !== undefined ? { note: p.input.note.slice(0, 1024) } : {}),
      regarding: reference(p.regarding),
      ...(p.input.related ? { related: reference(p.input.related) } : {}),
      reportingController: this.#o.reportingController,
      reportingInstance: this.#o.reportingInstance,
      ...(p.repeats > 1 ? { series: { count: p.repeats, lastObservedTime: at } } : {}),
    };
    await this.#events.create(event, { namespace });
    if (this.#written.size > 4096) this.#evict(now);
    this.#written.set(key, { name, namespace, count: p.repeats, lastSeen: now });
  }

  #evict(now: number): void {
    const window = this.#o.seriesWindowMs ?? 360_000;
    for (const [k, w] of this.#written) if (now - w.lastSeen >= window) this.#written.delete(k);
  }
}
