/**
 * FaultController (`server.faults`): produces on demand every failure a real
 * cluster produces — dropped, stalled, torn or corrupted watch streams,
 * compaction, throttling and server errors, connection resets, latency,
 * restarts that lose history, paused event delivery. Every injected fault is
 * appended to `log`; choices that involve chance use a seeded PRNG.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { failure, type StatusError } from "../api/status.js";
import type { ResourceRequestInfo } from "../http/request-info.js";
import { resetConnection } from "../http/transport.js";
import type { MvccStore } from "../storage/mvcc.js";
import type { OpenWatch, WatchRegistry } from "../watch/serve-watch.js";
import { seededRandom } from "./prng.js";

/** Which requests or watches a fault applies to; every given field must match. */
export interface FaultMatch {
  readonly group?: string;
  readonly resource?: string;
  readonly namespace?: string;
  readonly verb?: string;
  /** Matches when the request path starts with this. */
  readonly pathPrefix?: string;
}

export type FailureKind =
  | { readonly status: 429; readonly retryAfterSeconds?: number }
  | { readonly status: 500 | 503 }
  | { readonly status: 504; readonly tooLargeResourceVersion?: boolean }
  | { readonly reset: true };

export interface FaultLogEntry {
  readonly seq: number;
  readonly fault: string;
  readonly detail: string;
}

interface PendingFailure {
  remaining: number;
  readonly match: FaultMatch;
  readonly kind: FailureKind;
  /** 0..1: chance that a matching request fails (drawn from the seeded PRNG); 1 by default. */
  readonly probability: number;
}

interface Latency {
  readonly match: FaultMatch;
  readonly ms: number;
}

export type StreamTamper = "truncate" | "malformed";

export class FaultController {
  readonly log: FaultLogEntry[] = [];
  private seq = 0;
  private random: () => number;
  private failures: PendingFailure[] = [];
  private latencies: Latency[] = [];
  private stalledNew: FaultMatch[] = [];
  private paused = false;

  constructor(
    private readonly store: MvccStore,
    private readonly watches: WatchRegistry,
    seed = 1,
    private readonly logger?: (line: string) => void,
  ) {
    this.random = seededRandom(seed);
  }

  /** Restarts the PRNG, so the same calls replay the same choices. */
  reseed(seed: number): void {
    this.random = seededRandom(seed);
    this.record("reseed", String(seed));
  }

  /** Ends matching open watch streams now: `end` closes the body cleanly, `reset` kills the connection. */
  dropWatches(match: FaultMatch = {}, mode: "end" | "reset" = "end"): number {
    const hit = this.openWatches(match);
    for (const w of hit) mode === "end" ? w.stream.end("dropped") : w.stream.destroy("dropped");
    this.record("drop-watches", `${mode} ${hit.length} ${describe(match)}`);
    return hit.length;
  }

  /** Compacts history up to the current revision. */
  compact(): number {
    this.store.compact();
    this.record("compact", `to ${this.store.revision}`);
    return this.store.revision;
  }

  /** Fails the next `count` matching requests (watch connects included) with `kind`. */
  failNext(count: number, kind: FailureKind, match: FaultMatch = {}, probability = 1): void {
    this.failures.push({ remaining: count, match, kind, probability });
    this.record(
      "fail-next",
      `${count}× ${"reset" in kind ? "connection reset" : kind.status} ${describe(match)}`,
    );
  }

  /** Delays matching requests by `ms` before they are handled (0 removes the rule). */
  addLatency(ms: number, match: FaultMatch = {}): void {
    this.latencies = this.latencies.filter((l) => describe(l.match) !== describe(match));
    if (ms > 0) this.latencies.push({ match, ms });
    this.record("latency", `${ms}ms ${describe(match)}`);
  }

  /** The next event on each matching open watch is written half-way, then the connection is cut. */
  breakMidEvent(match: FaultMatch = {}): number {
    return this.tamper(match, "truncate", "break-mid-event");
  }

  /** The next event on each matching open watch is replaced by a line that is not JSON. */
  malformedEvent(match: FaultMatch = {}): number {
    return this.tamper(match, "malformed", "malformed-event");
  }

  /** Matching open watches (and new ones, until `unstall`) get no more bytes: headers sent, then silence. */
  stallWatches(match: FaultMatch = {}): number {
    const hit = this.openWatches(match);
    for (const w of hit) w.stream.stall();
    this.stalledNew.push(match);
    this.record("stall", `${hit.length} open + new ${describe(match)}`);
    return hit.length;
  }

  unstall(): void {
    this.stalledNew = [];
    this.record("unstall", "");
  }

  /** A restart that keeps the data but loses history: every watch ends, old revisions expire. */
  restart(): void {
    for (const w of [...this.watches.streams]) w.stream.destroy("dropped");
    this.store.compact();
    this.record("restart", `history compacted to ${this.store.revision}`);
  }

  /** Holds event delivery to every open and new watch until `resume()`. */
  pauseDelivery(): void {
    this.paused = true;
    for (const w of this.watches.streams) w.stream.pause();
    this.record("pause", "");
  }

  resumeDelivery(): void {
    this.paused = false;
    for (const w of this.watches.streams) w.stream.resume();
    this.record("resume", "");
  }

  /** Clears every pending rule (not the log). */
  reset(): void {
    this.failures = [];
    this.latencies = [];
    this.stalledNew = [];
    if (this.paused) this.resumeDelivery();
    this.record("reset", "");
  }

  /** @internal Whether nothing is to be injected: the dispatcher then does not wait for `intercept`. */
  get idle(): boolean {
    return this.failures.length === 0 && this.latencies.length === 0;
  }

  /** @internal Called by the dispatcher for every API request before it is served. */
  async intercept(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    info: ResourceRequestInfo | undefined,
  ): Promise<StatusError | "reset" | undefined> {
    const latency = this.latencies.find((l) => matches(l.match, path, info));
    if (latency) await new Promise((r) => setTimeout(r, latency.ms));
    const f = this.failures.find((p) => p.remaining > 0 && matches(p.match, path, info));
    if (!f) return undefined;
    if (f.probability < 1 && this.random() >= f.probability) return undefined;
    f.remaining--;
    this.failures = this.failures.filter((p) => p.remaining > 0);
    const k = f.kind;
    this.record("injected", `${req.method} ${path} → ${"reset" in k ? "connection reset" : k.status}`);
    if ("reset" in k) {
      resetConnection(res);
      return "reset";
    }
    switch (k.status) {
      case 429:
        return failure(429, "TooManyRequests", "Too many requests, please try again later.", {
          retryAfterSeconds: k.retryAfterSeconds ?? 1,
        });
      case 500:
        return failure(500, "InternalError", "Internal error occurred: injected fault");
      case 503:
        return failure(503, "ServiceUnavailable", "The server is currently unable to handle the request");
      case 504:
        return k.tooLargeResourceVersion
          ? failure(
              504,
              "Timeout",
              `Timeout: Too large resource version: ${this.store.revision + 1}, current: ${this.store.revision}`,
              {
                causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }],
                retryAfterSeconds: 1,
              },
            )
          : failure(504, "Timeout", "Timeout: request did not complete within the allowed duration");
    }
  }

  /** @internal Called when a watch opens, to apply stalls and pauses in force. */
  onWatchOpened(w: OpenWatch, path: string): void {
    if (this.paused) w.stream.pause();
    if (this.stalledNew.some((m) => matchesWatch(m, w, path))) {
      w.stream.stall();
      this.record("stall", `new watch ${path}`);
    }
  }

  private tamper(match: FaultMatch, how: StreamTamper, name: string): number {
    const hit = this.openWatches(match);
    for (const w of hit) w.stream.tamperNext(how);
    this.record(name, `${hit.length} ${describe(match)}`);
    return hit.length;
  }

  private openWatches(match: FaultMatch): OpenWatch[] {
    return [...this.watches.streams].filter((w) => matchesWatch(match, w, ""));
  }

  private record(fault: string, detail: string): void {
    const entry = { seq: ++this.seq, fault, detail };
    this.log.push(entry);
    this.logger?.(`fault #${entry.seq} ${fault} ${detail}`.trimEnd());
  }
}

function describe(m: FaultMatch): string {
  const parts = Object.entries(m).map(([k, v]) => `${k}=${v}`);
  return parts.length ? `(${parts.join(" ")})` : "(all)";
}

function matches(m: FaultMatch, path: string, info: ResourceRequestInfo | undefined): boolean {
  if (m.pathPrefix !== undefined && !path.startsWith(m.pathPrefix)) return false;
  if (m.group !== undefined && info?.group !== m.group) return false;
  if (m.resource !== undefined && info?.resource !== m.resource) return false;
  if (m.namespace !== undefined && info?.namespace !== m.namespace) return false;
  if (m.verb !== undefined && info?.verb !== m.verb) return false;
  return true;
}

function matchesWatch(m: FaultMatch, w: OpenWatch, path: string): boolean {
  if (m.pathPrefix !== undefined && path !== "" && !path.startsWith(m.pathPrefix)) return false;
  if (m.group !== undefined && w.resource.group !== m.group) return false;
  if (m.resource !== undefined && w.resource.resource !== m.resource) return false;
  if (m.namespace !== undefined && w.namespace !== m.namespace) return false;
  if (m.verb !== undefined && m.verb !== "watch") return false;
  return true;
}
