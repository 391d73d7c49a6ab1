/**
 * Judging another process's Lease the way client-go does (tools/leaderelection), shared by leader
 * election (one Lease, several candidates) and sharding (one Lease per member).
 *
 * Contract:
 * - A Lease is live while the duration *its record publishes* (`leaseDurationSeconds`) has not
 *   passed since this process last saw the record change, on this process's monotonic clock —
 *   never by the timestamps the holder wrote (another node's clock may be skewed), never by this
 *   process's own configured duration.
 * - "Changed" is decided by a version string the caller picks: the leader record's fields for
 *   leader election (client-go compares the record, so a label edit restarts no clock), the
 *   resourceVersion for member Leases (their published view is part of what they say).
 * - What this process writes: the duration rounded up to whole seconds, times as MicroTime.
 */
import type { coordinationV1 } from "@kubesdk/models";
import type { Clock } from "./clock.js";
import { microTime } from "./time-format.js";

type LeaseSpec = coordinationV1.LeaseSpec;

/** A Lease as judged here: when this process last saw it change, and what it published. */
export interface ObservedLease {
  /** Local monotonic time at which this process last saw the Lease change. */
  readonly observedAt: number;
  /** From its `leaseDurationSeconds`. */
  readonly durationMs: number;
}

export const publishedDurationMs = (spec: LeaseSpec | undefined): number =>
  (spec?.leaseDurationSeconds ?? 0) * 1000;

/** Whether `lease` is still live at `now`, or (`durations` > 1) within that many of its durations. */
export const isLive = (lease: ObservedLease, now: number, durations = 1): boolean =>
  now < lease.observedAt + durations * lease.durationMs;

/** The leader-election record of a Lease, as client-go compares it to detect a change. */
export const recordVersion = (spec: LeaseSpec | undefined): string =>
  JSON.stringify([
    spec?.holderIdentity,
    spec?.leaseDurationSeconds,
    spec?.acquireTime,
    spec?.renewTime,
    spec?.leaseTransitions,
  ]);

/** When each Lease (by name) was last seen to change. */
export class LeaseObserver {
  readonly #clock: Clock;
  readonly #seen = new Map<string, { readonly version: string; readonly at: number }>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Whether `version` would restart the clock of `name` (not seen before, or seen differently). */
  differs(name: string, version: string): boolean {
    return this.#seen.get(name)?.version !== version;
  }

  /** Records `name` seen at `version` now; returns when it was last seen to change (and whether now). */
  observe(name: string, version: string): { readonly observedAt: number; readonly changed: boolean } {
    const seen = this.#seen.get(name);
    if (seen !== undefined && seen.version === version) return { observedAt: seen.at, changed: false };
    const at = this.#clock.now();
    this.#seen.set(name, { version, at });
    return { observedAt: at, changed: true };
  }

  /** Forgets every Lease but `present` (the ones gone from the last full read). */
  retain(present: ReadonlySet<string>): void {
    for (const name of [...this.#seen.keys()]) if (!present.has(name)) this.#seen.delete(name);
  }
}

/** The fields this process writes when it holds a Lease for `durationMs`, stamped `at` (wall clock). */
export function holderSpec(identity: string, durationMs: number, at: Date): LeaseSpec {
  const now = microTime(at);
  return {
    holderIdentity: identity,
    leaseDurationSeconds: Math.ceil(durationMs / 1000),
    acquireTime: now,
    renewTime: now,
  };
}
