/**
 * Leader election on a `coordination.k8s.io/v1` Lease, with client-go's semantics
 * (tools/leaderelection), so kubesdk and client-go candidates can share one Lease.
 *
 * Contract:
 * - Candidates try to acquire the Lease every `retryPeriodMs` (default 2 s, plus up to 20% jitter).
 *   A Lease held by another identity counts as expired only once the duration the *holder
 *   published* (`leaseDurationSeconds`) has passed since this candidate last saw the record
 *   change, measured on this candidate's monotonic clock — never from the timestamps the holder
 *   wrote (another node's clock may be skewed), never from this candidate's own duration.
 * - Writes follow client-go: `acquireTime` is kept while the holder renews and set anew on a change
 *   of holder, `renewTime` is set on every write, `leaseTransitions` grows by one on every change of
 *   holder, `leaseDurationSeconds` is this candidate's duration (rounded up to seconds).
 * - Every write carries the resourceVersion it was based on, so of two candidates racing for an
 *   expired Lease exactly one wins; the other gets a conflict and stays a follower.
 * - The leader renews every `retryPeriodMs`. Leadership is *fresh* while the last successful
 *   renewal was *sent* less than `renewDeadlineMs` (default 10 s) ago on the monotonic clock.
 *   `checkFresh()` answers that synchronously; the moment it lapses (seen by `checkFresh()` or by
 *   the renew-deadline timer, whichever runs first) the term's signal is aborted, the in-flight
 *   request is aborted and `onStoppedLeading` runs. Since followers wait the published duration
 *   after they *saw* that renewal, a former leader has stopped at least
 *   `leaseDurationMs - renewDeadlineMs` before anyone else can acquire — also after the process was
 *   paused, since a pause longer than the renew deadline leaves no renewal fresh.
 * - After a lapse the candidate may lead again only through a new successful write (a new term).
 * - `stop()` (graceful shutdown) ends leading and, if this candidate still holds the Lease,
 *   releases it (empty holder, `leaseDurationSeconds` 1) so a follower can take over without
 *   waiting for expiry.
 */
import type { Kube, ResourceClient } from "@kubesdk/client";
import type { coordinationV1 } from "@kubesdk/models";
import { isAlreadyExists, isConflict, isNotFound } from "@kubesdk/transport";
import { type Clock, systemClock, type Timer } from "./clock.js";
import { ControllerError, checkNumber } from "./errors.js";
import {
  holderSpec,
  isLive,
  LeaseObserver,
  publishedDurationMs,
  recordVersion,
} from "./lease-observation.js";
import { consoleLogger, type Logger } from "./reconcile.js";
import { microTime } from "./time-format.js";

type Lease = coordinationV1.Lease;
type LeaseSpec = coordinationV1.LeaseSpec;

export interface LeaderElectionOptions {
  readonly kube: Kube;
  /** Name and namespace of the Lease. */
  readonly name: string;
  readonly namespace: string;
  /** Unique per candidate (e.g. pod name + random suffix). */
  readonly identity: string;
  readonly leaseDurationMs?: number;
  readonly renewDeadlineMs?: number;
  readonly retryPeriodMs?: number;
  readonly clock?: Clock;
  readonly logger?: Logger;
}

export interface LeaderCallbacks {
  /** Leadership acquired; `signal` aborts when it is lost or given up. */
  onStartedLeading?(signal: AbortSignal): void;
  /** Leadership lost or given up (called once per term). */
  onStoppedLeading?(): void;
  /** Another (or this) identity became the holder. */
  onNewLeader?(identity: string): void;
}

export const LEADER_ELECTION_DEFAULTS = {
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
};

export class LeaderElector {
  readonly identity: string;
  readonly #o: Required<Omit<LeaderElectionOptions, "kube" | "logger" | "clock">>;
  readonly #leases: ResourceClient<Lease>;
  readonly #clock: Clock;
  readonly #logger: Logger;
  #callbacks: LeaderCallbacks = {};
  /** The Lease as last read or written, and when (monotonic) its record last changed. */
  #observed: Lease | undefined;
  #observedAt = 0;
  readonly #observer: LeaseObserver;
  #observedHolder = "";
  #leading: { abort: AbortController; renewedSentAt: number; deadline: Timer | undefined } | undefined;
  #attempt: AbortController | undefined;
  #timer: Timer | undefined;
  #running = false;
  #lastRenewSentAt: number | undefined;
  #loop: Promise<void> = Promise.resolve();

  constructor(options: LeaderElectionOptions) {
    const o = { ...LEADER_ELECTION_DEFAULTS, ...options };
    checkNumber("retryPeriodMs", o.retryPeriodMs, 1);
    checkNumber("renewDeadlineMs", o.renewDeadlineMs, o.retryPeriodMs);
    checkNumber("leaseDurationMs", o.leaseDurationMs, o.renewDeadlineMs + 1);
    this.identity = o.identity;
    this.#o = {
      name: o.name,
      namespace: o.namespace,
      identity: o.identity,
      leaseDurationMs: o.leaseDurationMs,
      renewDeadlineMs: o.renewDeadlineMs,
      retryPeriodMs: o.retryPeriodMs,
    };
    this.#leases = options.kube.resource("coordination.k8s.io/v1", "Lease");
    this.#clock = options.clock ?? systemClock;
    this.#observer = new LeaseObserver(this.#clock);
    this.#logger = options.logger ?? consoleLogger;
  }

  get isLeader(): boolean {
    return this.#leading !== undefined;
  }

  /** The holder in the last record seen ("" when none). */
  get leader(): string {
    return this.#observedHolder;
  }

  /**
   * True while leading with the last successful renewal sent less than `renewDeadlineMs` ago.
   * Synchronous; when it finds leadership lapsed it ends the term at once (aborts the term's
   * signal, steps down), before any timer gets to run.
   */
  checkFresh(): boolean {
    const leading = this.#leading;
    if (leading === undefined) return false;
    if (this.#clock.now() - leading.renewedSentAt < this.#o.renewDeadlineMs) return true;
    this.#lapsed();
    return false;
  }

  /** Aborted when the current term ends; undefined while not leading. */
  get termSignal(): AbortSignal | undefined {
    return this.#leading?.abort.signal;
  }

  /** Monotonic time at which the last successful acquire/renew was sent (undefined before one). */
  get lastRenewSentAt(): number | undefined {
    return this.#lastRenewSentAt;
  }

  get options(): { leaseDurationMs: number; renewDeadlineMs: number; retryPeriodMs: number } {
    const { leaseDurationMs, renewDeadlineMs, retryPeriodMs } = this.#o;
    return { leaseDurationMs, renewDeadlineMs, retryPeriodMs };
  }

  /** Starts campaigning; callbacks run on every change of leadership until stop(). */
  start(callbacks: LeaderCallbacks = {}): void {
    if (this.#running) throw new ControllerError("ALREADY_STARTED", "the leader elector is running");
    this.#running = true;
    this.#callbacks = callbacks;
    this.#schedule(0);
  }

  /**
   * Stops campaigning and leading; releases the Lease if held, unless `release: false` (a process
   * that must not touch the Lease any more; followers then wait for it to expire).
   */
  async stop(options: { readonly release?: boolean } = {}): Promise<void> {
    if (!this.#running) return;
    this.#running = false;
    this.#timer?.cancel();
    this.#attempt?.abort();
    await this.#loop;
    const wasLeading = this.#leading !== undefined;
    this.#stepDown();
    if (wasLeading && options.release !== false) await this.#release();
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
    const sentAt = this.#clock.now();
    this.#logger.debug?.("lease round", { identity: this.identity, leading: this.#leading !== undefined });
    let ok = false;
    try {
      ok = await this.#tryAcquireOrRenew(attempt.signal);
    } catch (err) {
      if (!attempt.signal.aborted)
        this.#logger.error("lease acquire/renew failed", { identity: this.identity, error: String(err) });
    }
    if (this.#attempt === attempt) this.#attempt = undefined;
    if (!this.#running) return;
    // A write sent before a pause and answered after it is no renewal: it is not fresh.
    const fresh = this.#clock.now() - sentAt < this.#o.renewDeadlineMs;
    if (ok && !attempt.signal.aborted && fresh) this.#renewed(sentAt);
    else if (!fresh) this.#lapsed();
    // Followers retry with up to 20% jitter so candidates started together spread out; the leader
    // renews on the period.
    const jitter = this.#leading === undefined ? this.#o.retryPeriodMs * 0.2 * Math.random() : 0;
    this.#schedule(this.#o.retryPeriodMs + jitter);
  }

  #renewed(sentAt: number): void {
    this.#lastRenewSentAt = sentAt;
    // The round that started at `sentAt` (traced as "lease round") succeeded: leadership is fresh
    // until `sentAt + renewDeadlineMs`.
    this.#logger.debug?.("lease renewed", { identity: this.identity });
    const leading = this.#leading;
    if (leading !== undefined) {
      leading.renewedSentAt = sentAt;
      leading.deadline?.cancel();
      leading.deadline = this.#deadlineTimer(sentAt);
      return;
    }
    const abort = new AbortController();
    this.#leading = { abort, renewedSentAt: sentAt, deadline: undefined };
    this.#leading.deadline = this.#deadlineTimer(sentAt);
    this.#logger.info("became leader", { identity: this.identity });
    this.#callbacks.onStartedLeading?.(abort.signal);
  }

  #deadlineTimer(sentAt: number): Timer {
    const left = sentAt + this.#o.renewDeadlineMs - this.#clock.now();
    return this.#clock.setTimer(() => this.#lapsed(), left);
  }

  /** The renew deadline passed without a successful renewal: the term ends now. */
  #lapsed(): void {
    if (this.#leading === undefined) return;
    this.#logger.error("failed to renew the lease within the renew deadline", { identity: this.identity });
    this.#attempt?.abort();
    this.#stepDown();
  }

  #stepDown(): void {
    const leading = this.#leading;
    if (leading === undefined) return;
    this.#leading = undefined;
    leading.deadline?.cancel();
    leading.abort.abort(new ControllerError("LEADERSHIP_LOST", `${this.identity} stopped leading`));
    this.#callbacks.onStoppedLeading?.();
  }

  #spec(previous: LeaseSpec | undefined, now: Date): LeaseSpec {
    const mine = previous?.holderIdentity === this.identity;
    const spec = holderSpec(this.identity, this.#o.leaseDurationMs, now);
    return {
      ...spec,
      acquireTime: mine && previous?.acquireTime ? previous.acquireTime : spec.acquireTime,
      leaseTransitions: (previous?.leaseTransitions ?? 0) + (mine || previous === undefined ? 0 : 1),
    };
  }

  /** One attempt; true when this candidate holds the Lease afterwards. */
  async #tryAcquireOrRenew(signal: AbortSignal): Promise<boolean> {
    const now = this.#clock.wallTime();
    const { name, namespace } = this.#o;
    // Fast path: a valid leader renews from its own last write, without reading first.
    if (this.#leading !== undefined && this.#observed !== undefined) {
      try {
        return this.#observe(await this.#write(this.#observed, this.#spec(this.#observed.spec, now), signal));
      } catch (err) {
        if (signal.aborted) throw err;
        this.#logger.info("optimistic renew failed; reading the lease", { error: String(err) });
      }
    }
    let current: Lease;
    try {
      current = await this.#leases.get(name, { namespace, signal });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      const lease: Lease = { metadata: { name, namespace }, spec: this.#spec(undefined, now) };
      this.#logger.debug?.("lease write", { identity: this.identity, holder: this.identity });
      try {
        return this.#observe(await this.#leases.create(lease, { namespace, signal }));
      } catch (e) {
        if (isAlreadyExists(e) || isConflict(e)) return false;
        throw e;
      }
    }
    this.#observe(current);
    const holder = current.spec?.holderIdentity ?? "";
    // client-go's isLeaseValid: the holder's published duration from when this candidate saw the change.
    const observed = { observedAt: this.#observedAt, durationMs: publishedDurationMs(current.spec) };
    if (holder !== "" && holder !== this.identity && isLive(observed, this.#clock.now())) return false;
    try {
      return this.#observe(await this.#write(current, this.#spec(current.spec, now), signal));
    } catch (err) {
      if (isConflict(err)) return false;
      throw err;
    }
  }

  #write(base: Lease, spec: LeaseSpec, signal: AbortSignal): Promise<Lease> {
    this.#logger.debug?.("lease write", { identity: this.identity, holder: spec.holderIdentity });
    const lease: Lease = { ...base, spec };
    return this.#leases.replace(lease, { namespace: this.#o.namespace, signal });
  }

  /** Records a Lease read or written; returns whether this candidate holds it. */
  #observe(lease: Lease): boolean {
    const after = lease.spec;
    const version = recordVersion(after);
    // Traced before the clock is read, so a trace's time is never later than the elector's.
    if (this.#observer.differs(this.#o.name, version))
      this.#logger.debug?.("lease observed", {
        identity: this.identity,
        holder: after?.holderIdentity ?? "",
        leaseDurationSeconds: after?.leaseDurationSeconds ?? 0,
      });
    this.#observed = lease;
    this.#observedAt = this.#observer.observe(this.#o.name, version).observedAt;
    const holder = after?.holderIdentity ?? "";
    if (holder !== this.#observedHolder) {
      this.#observedHolder = holder;
      if (holder !== "") this.#callbacks.onNewLeader?.(holder);
    }
    return holder === this.identity;
  }

  /**
   * Gives the Lease up (empty holder), if this candidate still holds it. A renewal that stop()
   * aborted may have reached the server all the same, leaving the last record seen here stale: the
   * release then conflicts, and is sent once more based on a fresh read if that still names this
   * candidate (without it, followers would wait out the whole lease).
   */
  async #release(): Promise<void> {
    const signal = AbortSignal.timeout(this.#o.renewDeadlineMs);
    const { name, namespace } = this.#o;
    let lease = this.#observed;
    for (let attempt = 1; lease?.spec?.holderIdentity === this.identity; attempt++) {
      try {
        this.#observe(await this.#write(lease, this.#releasedSpec(lease.spec), signal));
        return;
      } catch (err) {
        if (attempt > 1 || !isConflict(err)) {
          this.#logger.error("releasing the lease failed", { identity: this.identity, error: String(err) });
          return;
        }
      }
      lease = await this.#leases.get(name, { namespace, signal }).catch(() => undefined);
    }
  }

  #releasedSpec(held: LeaseSpec): LeaseSpec {
    const now = microTime(this.#clock.wallTime());
    return { ...held, holderIdentity: "", leaseDurationSeconds: 1, renewTime: now, acquireTime: now };
  }
}
