/**
 * LeaderElector on fake time against an in-memory Lease store: expiry is judged from when this
 * candidate saw the record change (not from the holder's timestamps), renewals that fail or hang
 * end leadership at the renew deadline, optimistic concurrency leaves one leader, stop releases.
 */
import type { Kube } from "@kubesdk/client";
import type { coordinationV1 } from "@kubesdk/models";
import { ApiError } from "@kubesdk/transport";
import { describe, expect, it } from "vitest";
import { FakeClock } from "../src/clock.js";
import { LeaderElector } from "../src/leader-election.js";
import { silentLogger } from "../src/reconcile.js";

type Lease = coordinationV1.Lease;

function apiError(code: number, reason: string): ApiError {
  const status = { kind: "Status", apiVersion: "v1", status: "Failure", code, reason, message: reason };
  return new ApiError({ status, code, statusCode: code, reason, message: reason } as never);
}

/** One Lease with resourceVersions; `mode` makes writes fail or hang. */
class FakeLeases {
  lease: Lease | undefined;
  rv = 0;
  mode: "ok" | "fail" | "hang" = "ok";
  writes = 0;

  async get(): Promise<Lease> {
    if (this.lease === undefined) throw apiError(404, "NotFound");
    return structuredClone(this.lease);
  }

  async create(l: Lease): Promise<Lease> {
    if (this.lease !== undefined) throw apiError(409, "AlreadyExists");
    return this.#store(l);
  }

  replace(l: Lease, options: { signal?: AbortSignal }): Promise<Lease> {
    if (this.mode === "hang")
      return new Promise((_, reject) =>
        options.signal?.addEventListener("abort", () => reject(new Error("aborted"))),
      );
    if (this.mode === "fail") return Promise.reject(apiError(500, "InternalError"));
    if (l.metadata?.resourceVersion !== this.lease?.metadata?.resourceVersion)
      return Promise.reject(apiError(409, "Conflict"));
    return Promise.resolve(this.#store(l));
  }

  /** Another process writes the Lease (its clock is its own). */
  writeAs(holder: string, renewTime: string): void {
    this.#store({
      metadata: { name: "l", namespace: "ns" },
      spec: { holderIdentity: holder, renewTime, leaseDurationSeconds: 15 },
    });
  }

  #store(l: Lease): Lease {
    this.writes++;
    this.lease = structuredClone({ ...l, metadata: { ...l.metadata, resourceVersion: String(++this.rv) } });
    return structuredClone(this.lease);
  }
}

const flush = () => new Promise<void>((r) => setImmediate(r));

async function run(clock: FakeClock, ms: number, step = 100): Promise<void> {
  for (let t = 0; t < ms; t += step) {
    clock.advance(step);
    await flush();
  }
}

const SHORT = { leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 500 } as const;

function elector(clock: FakeClock, leases: FakeLeases, identity: string, timing: Partial<typeof SHORT> = {}) {
  const kube = { resource: () => leases } as unknown as Kube;
  const e = new LeaderElector({
    kube,
    name: "l",
    namespace: "ns",
    identity,
    clock,
    logger: silentLogger,
    ...timing,
  });
  const log: string[] = [];
  e.start({
    onStartedLeading: () => log.push(`start@${clock.now()}`),
    onStoppedLeading: () => log.push(`stop@${clock.now()}`),
  });
  return { e, log };
}

describe("LeaderElector (fake time)", () => {
  it("waits the lease duration from when it saw the record, whatever time the holder wrote", async () => {
    const clock = new FakeClock();
    const leases = new FakeLeases();
    // The holder's clock is an hour behind: its renewTime looks long expired.
    leases.writeAs("other", "2025-12-31T23:00:00.000000Z");
    const { e, log } = elector(clock, leases, "me");
    await run(clock, 14_000);
    expect(e.isLeader).toBe(false);
    expect(e.leader).toBe("other");
    await run(clock, 4_000);
    expect(e.isLeader).toBe(true);
    const started = Number(log[0]?.split("@")[1]);
    expect(started).toBeGreaterThanOrEqual(15_000);
    expect(leases.lease?.spec?.leaseTransitions).toBe(1);
    await e.stop();
  });

  it("never takes a Lease whose holder keeps renewing", async () => {
    const clock = new FakeClock();
    const leases = new FakeLeases();
    leases.writeAs("other", "2026-01-01T00:00:00.000000Z");
    const { e } = elector(clock, leases, "me");
    for (let i = 0; i < 30; i++) {
      await run(clock, 2_000);
      leases.writeAs("other", `2026-01-01T00:00:${String(i).padStart(2, "0")}.000000Z`);
    }
    expect(e.isLeader).toBe(false);
    await e.stop();
  });

  for (const mode of ["fail", "hang"] as const) {
    it(`stops leading at the renew deadline when renewals ${mode}`, async () => {
      const clock = new FakeClock();
      const leases = new FakeLeases();
      const { e, log } = elector(clock, leases, "me");
      await run(clock, 100);
      expect(e.isLeader).toBe(true);
      await run(clock, 5_000);
      const lastRenew = e.lastRenewSentAt as number;
      leases.mode = mode;
      await run(clock, 12_000, 50);
      expect(e.isLeader).toBe(false);
      const stoppedAt = Number(log.at(-1)?.split("@")[1]);
      expect(log.at(-1)).toMatch(/^stop@/);
      expect(stoppedAt).toBe(lastRenew + 10_000);
      await e.stop();
    });
  }

  it("two candidates on one Lease: one leader at every step; stop releases the Lease to the other", async () => {
    const clock = new FakeClock();
    const leases = new FakeLeases();
    const a = elector(clock, leases, "a");
    const b = elector(clock, leases, "b");
    for (let i = 0; i < 100; i++) {
      await run(clock, 100);
      expect(a.e.isLeader && b.e.isLeader).toBe(false);
    }
    const [leader, follower] = a.e.isLeader ? [a, b] : [b, a];
    expect(leader.e.isLeader).toBe(true);
    await leader.e.stop();
    expect(leases.lease?.spec?.holderIdentity).toBe("");
    await run(clock, 2_500);
    expect(follower.e.isLeader).toBe(true);
    await follower.e.stop();
  });

  it("waits out the duration the holder published, not its own shorter one (client-go's isLeaseValid)", async () => {
    const clock = new FakeClock();
    const leases = new FakeLeases();
    leases.writeAs("other", "2026-01-01T00:00:00.000000Z"); // published: 15 s
    const { e, log } = elector(clock, leases, "me", SHORT);
    await run(clock, 14_500);
    expect(e.isLeader).toBe(false);
    await run(clock, 2_000);
    expect(e.isLeader).toBe(true);
    expect(Number(log[0]?.split("@")[1])).toBeGreaterThanOrEqual(15_000);
    expect(leases.lease?.spec?.leaseDurationSeconds).toBe(3);
    await e.stop();
  });

  it("keeps acquireTime and leaseTransitions while renewing; a new holder sets acquireTime and counts a transition", async () => {
    const clock = new FakeClock();
    const leases = new FakeLeases();
    const a = elector(clock, leases, "a", SHORT);
    await run(clock, 100);
    const acquired = leases.lease?.spec?.acquireTime;
    await run(clock, 2_000);
    expect(leases.lease?.spec).toMatchObject({
      holderIdentity: "a",
      acquireTime: acquired,
      leaseTransitions: 0,
    });
    expect(leases.lease?.spec?.renewTime).not.toBe(acquired);
    await a.e.stop();
    expect(leases.lease?.spec).toMatchObject({
      holderIdentity: "",
      leaseDurationSeconds: 1,
      leaseTransitions: 0,
    });
    const b = elector(clock, leases, "b", SHORT);
    await run(clock, 1_000);
    expect(leases.lease?.spec?.holderIdentity).toBe("b");
    expect(leases.lease?.spec?.leaseTransitions).toBe(1);
    expect(leases.lease?.spec?.acquireTime).not.toBe(acquired);
    await b.e.stop();
  });

  it("after a pause longer than the renew deadline, leadership is not fresh before any timer runs; it returns only through a new write", async () => {
    const clock = new FakeClock();
    const leases = new FakeLeases();
    const { e, log } = elector(clock, leases, "me", SHORT);
    await run(clock, 100);
    expect(e.checkFresh()).toBe(true);
    const term = e.termSignal as AbortSignal;
    const writes = leases.writes;
    clock.jump(2_500); // SIGSTOP for 2.5 s: every timer is overdue, none has run
    expect(e.checkFresh()).toBe(false);
    expect(term.aborted).toBe(true);
    expect(log.at(-1)).toBe("stop@2600");
    clock.advance(0);
    await run(clock, 1_000);
    expect(leases.writes).toBeGreaterThan(writes);
    expect(e.checkFresh()).toBe(true);
    expect(log.filter((l) => l.startsWith("start@"))).toHaveLength(2);
    await e.stop();
  });
});
