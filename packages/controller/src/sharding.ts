/**
 * Sharding: N replicas of a controller share its keys by rendezvous hashing over the live members,
 * membership kept in one `coordination.k8s.io/v1` Lease per replica (see member-leases.ts). A
 * {@link Sharding} is the {@link WorkGate} a controller consults before every reconcile.
 *
 * Contract (docs/guides/controllers.md, "Scaling past one replica", says why each rule is needed):
 * - Fence: this member admits nothing unless its last successful Lease renewal was *sent* less than
 *   `renewDeadlineMs` ago on the local monotonic clock, checked synchronously in `admits`. Whenever a
 *   lapse is noticed (a timer, an `admits` call, a renewal answered too late — whichever runs first
 *   after a pause) every admitted reconcile's signal is aborted and every key must be cleared anew.
 * - View: the sorted identities of the members whose Leases are live by this member's observation
 *   (`leaseDurationSeconds` after it last saw the Lease change), itself included. A member publishes
 *   in its Lease the view it acts on; it claims the keys it owns under that view.
 * - Handoff: on a view change a member stops admitting the keys it no longer owns and aborts their
 *   reconciles *before* it publishes the new view. It admits a newly owned key only after its own
 *   claim was stored and a list sent after that showed no live member claiming the key. Of two
 *   members claiming one key, each stores its claim before reading the other's, so at least one sees
 *   the other's and waits (and a member judged expired is fenced already).
 * - A key stays admitted while every view adopted since the last such list gives it to this member.
 * - Keys that become admitted are enqueued (from the informer cache, plus keys dropped while their
 *   clearance was pending); keys whose owner did not change are never interrupted.
 * - `stop()` (graceful leave) stops admitting, then deletes this member's Lease so the others take
 *   its keys without waiting for expiry. A crashed member's keys move once its Lease expires; a
 *   Lease expired for another lease duration is deleted by a live member.
 */
import type { Kube } from "@kubesdk/client";
import { type Clock, systemClock, type Timer } from "./clock.js";
import { ControllerError, checkNumber } from "./errors.js";
import { isLive } from "./lease-observation.js";
import { MemberLeases, type MemberRecord } from "./member-leases.js";
import { consoleLogger, type Logger } from "./reconcile.js";
import { shardOwner } from "./rendezvous.js";
import type { WorkGate } from "./work-gate.js";

export interface ShardingOptions {
  /** The shard group: every replica of one controller uses the same name. */
  readonly name: string;
  /** Where the member Leases live. */
  readonly namespace: string;
  /** Unique per replica and process (e.g. pod name + random suffix); part of its Lease's name. */
  readonly identity: string;
  /** Published in the member Lease (rounded up to seconds); others judge expiry by it. */
  readonly leaseDurationMs?: number;
  /** The fence: no admission unless the last renewal was sent this recently. */
  readonly renewDeadlineMs?: number;
  /** Renew and re-read the group this often. */
  readonly retryPeriodMs?: number;
  /** Called each time this member's Lease stored a new view. */
  readonly onViewPublished?: (view: readonly string[]) => void;
}

export const SHARDING_DEFAULTS = {
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
} as const;

/** What the gate needs from the controller it guards. */
export interface ShardedWork {
  /** Every key the controller knows (its primary informer cache). */
  keys(): Iterable<string>;
  enqueue(key: string): void;
}

/** A consistent read of the group, taken after this member's view was stored. */
interface Snapshot {
  readonly epoch: number;
  readonly others: readonly MemberRecord[];
}

function sameView(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((m, i) => m === b[i]);
}

export class Sharding implements WorkGate {
  readonly identity: string;
  readonly #o: Required<Omit<ShardingOptions, "onViewPublished">>;
  readonly #onView: ((view: readonly string[]) => void) | undefined;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #leases: MemberLeases;
  #work: ShardedWork | undefined;
  #running = false;
  #timer: Timer | undefined;
  #attempt: AbortController | undefined;
  #loop: Promise<void> = Promise.resolve();
  #lastRenewSentAt: number | undefined;
  #fenceTimer: Timer | undefined;
  /** Incremented on every lapse: clearances of an older epoch are void. */
  #epoch = 0;
  #acting: readonly string[] = [];
  #published: readonly string[] | undefined;
  #snapshot: Snapshot | undefined;
  /** The views acted on since the snapshot was taken (the first is the one it was taken under). */
  #history: (readonly string[])[] = [];
  readonly #signals = new Map<string, AbortController>();
  #admitted = new Set<string>();
  readonly #deferred = new Set<string>();
  #records: readonly MemberRecord[] = [];

  constructor(options: ShardingOptions & { kube: Kube; clock?: Clock; logger?: Logger }) {
    const o = { ...SHARDING_DEFAULTS, ...options };
    checkNumber("retryPeriodMs", o.retryPeriodMs, 1);
    checkNumber("renewDeadlineMs", o.renewDeadlineMs, o.retryPeriodMs);
    checkNumber("leaseDurationMs", o.leaseDurationMs, o.renewDeadlineMs + 1);
    if (o.identity === "" || o.name === "")
      throw new ControllerError("INVALID_OPTION", "sharding needs a non-empty name and identity");
    this.identity = o.identity;
    this.#o = {
      name: o.name,
      namespace: o.namespace,
      identity: o.identity,
      leaseDurationMs: o.leaseDurationMs,
      renewDeadlineMs: o.renewDeadlineMs,
      retryPeriodMs: o.retryPeriodMs,
    };
    this.#onView = options.onViewPublished;
    this.#clock = options.clock ?? systemClock;
    this.#logger = options.logger ?? consoleLogger;
    this.#leases = new MemberLeases({
      kube: options.kube,
      group: o.name,
      namespace: o.namespace,
      identity: o.identity,
      leaseDurationMs: o.leaseDurationMs,
      clock: this.#clock,
    });
  }

  /** The view this member acts on (sorted identities; empty before it has read the group). */
  get view(): readonly string[] {
    return this.#acting;
  }

  /** The view its Lease last stored. */
  get publishedView(): readonly string[] | undefined {
    return this.#published;
  }

  /** The member Leases as last read. */
  get members(): readonly MemberRecord[] {
    return this.#records;
  }

  /** The owner of `key` under this member's view. */
  ownerOf(key: string): string | undefined {
    return shardOwner(key, this.#acting);
  }

  start(work: ShardedWork): void {
    if (this.#running) throw new ControllerError("ALREADY_STARTED", `sharding ${this.identity} is running`);
    this.#running = true;
    this.#work = work;
    this.#acting = [];
    this.#published = undefined;
    this.#schedule(0);
  }

  /** Leaves the group: admits nothing from now on, then deletes this member's Lease. */
  async stop(): Promise<void> {
    if (!this.#running) return;
    this.#running = false;
    this.#timer?.cancel();
    // The round in flight finishes (each request is bounded by the renew deadline), so the Lease
    // deleted below is the version last written.
    await this.#loop;
    this.#lapse("left the group");
    this.#acting = [];
    this.#deferred.clear();
    try {
      await this.#leases.remove(AbortSignal.timeout(this.#o.renewDeadlineMs));
    } catch (err) {
      this.#logger.error("deleting the member lease failed", { identity: this.identity, error: String(err) });
    }
  }

  admits(key: string): boolean {
    if (!this.#fresh()) return false;
    const snapshot = this.#snapshot;
    if (snapshot === undefined) return false;
    for (const view of this.#history) if (shardOwner(key, view) !== this.identity) return false;
    const now = this.#clock.now();
    for (const other of snapshot.others)
      if (isLive(other, now) && shardOwner(key, other.view) === other.identity) return false;
    return true;
  }

  signal(key: string): AbortSignal {
    let abort = this.#signals.get(key);
    if (abort === undefined) {
      abort = new AbortController();
      this.#signals.set(key, abort);
    }
    return abort.signal;
  }

  /** A worker dropped `key` (not admitted): re-enqueue it once admitted if this member owns it. */
  dropped(key: string): void {
    if (this.#acting.length === 0 || shardOwner(key, this.#acting) === this.identity) this.#deferred.add(key);
  }

  /** True while the fence holds; notices a lapse (and handles it) otherwise. */
  #fresh(): boolean {
    const last = this.#lastRenewSentAt;
    if (last === undefined) return false;
    if (this.#clock.now() < last + this.#o.renewDeadlineMs) return true;
    this.#lapse("the member lease was not renewed within the renew deadline");
    return false;
  }

  #lapse(why: string): void {
    const wasFenced = this.#lastRenewSentAt !== undefined;
    this.#lastRenewSentAt = undefined;
    this.#fenceTimer?.cancel();
    this.#fenceTimer = undefined;
    this.#epoch++;
    this.#snapshot = undefined;
    this.#history = [];
    this.#admitted = new Set();
    for (const abort of this.#signals.values()) abort.abort(new ControllerError("SHUT_DOWN", why));
    this.#signals.clear();
    if (wasFenced) this.#logger.info("sharding fence lapsed", { identity: this.identity, why });
  }

  #schedule(ms: number): void {
    this.#timer = this.#clock.setTimer(() => {
      this.#loop = this.#round();
    }, ms);
  }

  async #round(): Promise<void> {
    if (!this.#running) return;
    const attempt = new AbortController();
    this.#attempt = attempt;
    const signal = AbortSignal.any([attempt.signal, AbortSignal.timeout(this.#o.renewDeadlineMs)]);
    try {
      const view = this.#acting;
      const sentAt = this.#clock.now();
      await this.#leases.renew(view, signal);
      if (!this.#running) return;
      this.#renewed(sentAt, view);
      const epoch = this.#epoch;
      const records = await this.#leases.list(signal);
      if (!this.#running) return;
      this.#observe(records, epoch, view);
      await this.#collectExpired(signal);
    } catch (err) {
      if (this.#running)
        this.#logger.error("sharding round failed", { identity: this.identity, error: String(err) });
    } finally {
      if (this.#attempt === attempt) this.#attempt = undefined;
      // A view not yet published is published at once; otherwise renew on the period.
      const pending = this.#published === undefined || !sameView(this.#published, this.#acting);
      if (this.#running) this.#schedule(pending ? 0 : this.#o.retryPeriodMs);
    }
  }

  #renewed(sentAt: number, view: readonly string[]): void {
    const now = this.#clock.now();
    // Answered after the fence had lapsed (a stall or a pause): everything admitted is void.
    if (this.#lastRenewSentAt !== undefined && now >= this.#lastRenewSentAt + this.#o.renewDeadlineMs)
      this.#lapse("a renewal was answered after the renew deadline");
    this.#lastRenewSentAt = sentAt;
    this.#armFence();
    const changed = this.#published === undefined || !sameView(this.#published, view);
    this.#published = view;
    if (changed) this.#onView?.(view);
  }

  /** A timer that notices the lapse when nothing else runs (re-armed if it fires a little early). */
  #armFence(): void {
    this.#fenceTimer?.cancel();
    const last = this.#lastRenewSentAt;
    if (last === undefined) return;
    this.#fenceTimer = this.#clock.setTimer(
      () => {
        if (this.#fresh()) this.#armFence();
      },
      last + this.#o.renewDeadlineMs - this.#clock.now(),
    );
  }

  /** A consistent list arrived, sent after `published` was stored in this member's Lease. */
  #observe(records: readonly MemberRecord[], epoch: number, published: readonly string[]): void {
    this.#records = records;
    const others = records.filter((r) => r.identity !== this.identity);
    if (epoch === this.#epoch && this.#acting === published && this.#fresh()) {
      this.#snapshot = { epoch, others };
      this.#history = [published];
    }
    const now = this.#clock.now();
    const live = others.filter((r) => isLive(r, now)).map((r) => r.identity);
    const next = [...new Set([this.identity, ...live])].sort();
    if (!sameView(next, this.#acting)) this.#adopt(next);
    this.#enqueueAdmitted();
  }

  /** Acts on a new view: stops admitting (and aborts) the keys it no longer owns, at once. */
  #adopt(view: readonly string[]): void {
    this.#acting = view;
    if (this.#snapshot !== undefined) this.#history.push(view);
    for (const [key, abort] of this.#signals)
      if (shardOwner(key, view) !== this.identity) {
        abort.abort(new ControllerError("SHUT_DOWN", `${key} moved to ${shardOwner(key, view)}`));
        this.#signals.delete(key);
      }
    this.#logger.info("sharding view changed", { identity: this.identity, view });
  }

  /** Enqueues the keys admitted now that were not at the last look (the keys that moved here). */
  #enqueueAdmitted(): void {
    const work = this.#work;
    if (work === undefined) return;
    const admitted = new Set<string>();
    const consider = (key: string) => {
      if (admitted.has(key) || !this.admits(key)) return;
      admitted.add(key);
      if (!this.#admitted.has(key)) work.enqueue(key);
    };
    for (const key of work.keys()) consider(key);
    for (const key of this.#deferred) {
      consider(key);
      if (admitted.has(key) || shardOwner(key, this.#acting) !== this.identity) this.#deferred.delete(key);
    }
    this.#admitted = admitted;
  }

  /** Deletes Leases expired for a further lease duration (crashed members), unchanged since read. */
  async #collectExpired(signal: AbortSignal): Promise<void> {
    const now = this.#clock.now();
    for (const r of this.#records)
      if (r.identity !== this.identity && !isLive(r, now, 2)) await this.#leases.collect(r, signal);
  }
}
