/**
 * Leader election with two and three candidates in one process against one server. Each candidate
 * runs a Manager whose controller reconciles every ConfigMap of the suite's namespace every 50 ms
 * (periodic resync), recording each reconcile with its identity. Checked on every run:
 * - no two identities' reconciles overlap in time;
 * - every reconcile of an identity falls inside one of its leadership terms;
 * - a candidate that takes over from another starts leading no earlier than the previous
 *   holder's last successful renewal plus the lease duration (unless the Lease was released);
 * - the previous holder's controllers have stopped before the next holder's start.
 * The fault cases stall or fail Lease updates — while the Lease is valid only its holder writes
 * it, so these hit the leader's requests; they use the reference server's fault controls and run
 * against it only.
 */
import type { Kube } from "@kubesdk/client";
import { Manager, silentLogger } from "@kubesdk/controller";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, targetKind, uniqueName } from "../support/target.js";
import { clientOf, createNamespace, deferred } from "./support.js";

const TIMING = { leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 250 } as const;

interface Interval {
  readonly id: string;
  readonly start: number;
  end: number | undefined;
}

interface Candidate {
  readonly id: string;
  readonly kube: Kube;
  readonly manager: Manager;
  readonly terms: Interval[];
  /** Set when leadership is lost: the elector's last successful renewal (sent). */
  lastRenewOfTerm: (number | undefined)[];
  released: boolean;
}

class Election {
  readonly candidates: Candidate[] = [];
  readonly reconciles: Interval[] = [];
  readonly problems: string[] = [];
  #leaderWaiters: { pred: (c: Candidate) => boolean; resolve: (c: Candidate) => void }[] = [];

  constructor(
    readonly t: TestTarget,
    readonly ns: string,
    readonly lease: string,
  ) {}

  async add(id: string): Promise<Candidate> {
    const kube = await clientOf(this.t);
    const manager = new Manager({
      kube,
      logger: silentLogger,
      leaderElection: { name: this.lease, namespace: this.ns, identity: id, ...TIMING },
      onLeaderChange: (leading) => this.#changed(candidate, leading),
    });
    manager.controller({
      name: `cm-${id}`,
      resource: kube.resource("v1", "ConfigMap"),
      namespace: this.ns,
      resyncPeriodMs: 50,
      reconcile: async ({ name }) => {
        const r: Interval = { id, start: performance.now(), end: undefined };
        this.reconciles.push(r);
        await kube
          .resource("v1", "ConfigMap")
          .get(name, { namespace: this.ns })
          .catch(() => undefined);
        r.end = performance.now();
        return undefined;
      },
    });
    const candidate: Candidate = { id, kube, manager, terms: [], lastRenewOfTerm: [], released: false };
    this.candidates.push(candidate);
    await manager.start();
    return candidate;
  }

  #changed(c: Candidate, leading: boolean): void {
    const now = performance.now();
    if (leading) {
      for (const other of this.candidates) {
        if (other === c) continue;
        const last = other.terms.at(-1);
        if (last === undefined) continue;
        if (last.end === undefined) this.problems.push(`${c.id} started leading while ${other.id} still led`);
        if (other.manager.controllers.some((ctl) => ctl.running))
          this.problems.push(`${c.id} started leading while ${other.id}'s controllers still ran`);
        const renew = other.lastRenewOfTerm.at(-1);
        if (!other.released && renew !== undefined && now < renew + TIMING.leaseDurationMs)
          this.problems.push(
            `${c.id} started leading ${Math.round(renew + TIMING.leaseDurationMs - now)} ms before ${other.id}'s lease could expire`,
          );
      }
      c.terms.push({ id: c.id, start: now, end: undefined });
      for (const w of [...this.#leaderWaiters])
        if (w.pred(c)) {
          this.#leaderWaiters = this.#leaderWaiters.filter((x) => x !== w);
          w.resolve(c);
        }
    } else {
      const term = c.terms.at(-1);
      if (term !== undefined) term.end = now;
      c.lastRenewOfTerm.push(c.manager.elector?.lastRenewSentAt);
    }
  }

  /** Resolves with the next candidate (matching `pred`) to start leading, or the current one. */
  nextLeader(pred: (c: Candidate) => boolean = () => true): Promise<Candidate> {
    const current = this.candidates.find((c) => c.manager.elector?.isLeader && pred(c));
    if (current !== undefined) return Promise.resolve(current);
    const d = deferred<Candidate>();
    this.#leaderWaiters.push({ pred, resolve: d.resolve });
    return d.promise;
  }

  /** Resolves once `id` has reconciled `count` more times. */
  async reconciledBy(c: Candidate, count: number): Promise<void> {
    const target = this.reconciles.filter((r) => r.id === c.id).length + count;
    const d = deferred();
    const check = () => {
      if (this.reconciles.filter((r) => r.id === c.id && r.end !== undefined).length >= target) d.resolve();
      else setImmediate(check);
    };
    check();
    await d.promise;
  }

  async stopAll(): Promise<void> {
    for (const c of this.candidates) await c.manager.stop();
    for (const c of this.candidates) await c.kube.close();
  }

  /** Every invariant listed in the file comment. */
  verify(): string[] {
    const problems = [...this.problems];
    const done = this.reconciles.filter((r) => r.end !== undefined);
    const sorted = [...done].sort((a, b) => a.start - b.start);
    let maxEnd = { at: Number.NEGATIVE_INFINITY, id: "" };
    for (const r of sorted) {
      if (r.start < maxEnd.at && r.id !== maxEnd.id)
        problems.push(`reconcile of ${r.id} at ${r.start.toFixed(1)} overlaps one of ${maxEnd.id}`);
      if ((r.end as number) > maxEnd.at) maxEnd = { at: r.end as number, id: r.id };
    }
    for (const r of done) {
      const c = this.candidates.find((x) => x.id === r.id);
      const inTerm = c?.terms.some((t) => r.start >= t.start && (t.end === undefined || r.start <= t.end));
      if (!inTerm) problems.push(`${r.id} reconciled at ${r.start.toFixed(1)} outside its leadership`);
    }
    return problems;
  }
}

describe("leader election", () => {
  let t: TestTarget;
  let kube: Kube;
  let ns: string;
  let election: Election | undefined;

  beforeAll(async () => {
    t = await startTarget();
    kube = await clientOf(t);
    ns = await createNamespace(kube, "leader");
    for (let i = 0; i < 3; i++)
      await kube
        .resource("v1", "ConfigMap")
        .create({ metadata: { name: `cm-${i}` }, data: { i: String(i) } }, { namespace: ns });
  });

  afterEach(async () => {
    t.reference?.faults.reset();
    await election?.stopAll();
    election = undefined;
  });

  afterAll(async () => {
    await kube
      ?.resource("v1", "Namespace")
      .delete(ns)
      .catch(() => {});
    await kube?.close();
    await t?.close();
  });

  async function elect(n: number): Promise<Election> {
    const e = new Election(t, ns, uniqueName("lease"));
    election = e;
    for (let i = 0; i < n; i++) await e.add(`c${i}`);
    return e;
  }

  it("two candidates: one leads and reconciles; after it shuts down gracefully the other takes over", async () => {
    const e = await elect(2);
    const first = await e.nextLeader();
    await e.reconciledBy(first, 6);
    first.released = true;
    await first.manager.stop();
    const second = await e.nextLeader((c) => c !== first);
    await e.reconciledBy(second, 6);
    const lease = await kube.resource("coordination.k8s.io/v1", "Lease").get(e.lease, { namespace: ns });
    expect(lease.spec?.holderIdentity).toBe(second.id);
    expect(lease.spec?.leaseTransitions).toBeGreaterThanOrEqual(1);
    expect(e.verify()).toEqual([]);
  });

  it("three candidates: leadership passes on twice, never two leaders at once", async () => {
    const e = await elect(3);
    const seen = new Set<string>();
    for (let round = 0; round < 3; round++) {
      const leader = await e.nextLeader((c) => !seen.has(c.id));
      seen.add(leader.id);
      await e.reconciledBy(leader, 6);
      if (round < 2) {
        leader.released = true;
        await leader.manager.stop();
      }
    }
    expect(seen.size).toBe(3);
    expect(e.verify()).toEqual([]);
  });

  it("SIGTERM: stops taking work, lets the in-flight reconcile finish, then releases the Lease", async () => {
    const lease = uniqueName("lease");
    const order: string[] = [];
    const inFlight = deferred();
    const release = deferred();
    const manager = new Manager({
      kube,
      logger: silentLogger,
      leaderElection: { name: lease, namespace: ns, identity: "sig", ...TIMING },
    });
    manager.controller({
      name: "sig",
      resource: kube.resource("v1", "ConfigMap"),
      namespace: ns,
      reconcile: async ({ name }) => {
        if (name !== "cm-0") return undefined;
        inFlight.resolve();
        await release.promise;
        order.push("reconcile finished");
        return undefined;
      },
    });
    const stopped = deferred();
    const detach = manager.handleSignals(() => stopped.resolve());
    try {
      await manager.start();
      await inFlight.promise;
      process.emit("SIGTERM");
      expect(manager.controllers[0]?.running).toBe(false);
      const leases = kube.resource("coordination.k8s.io/v1", "Lease");
      expect((await leases.get(lease, { namespace: ns })).spec?.holderIdentity).toBe("sig");
      release.resolve();
      await stopped.promise;
      order.push("stopped");
      expect(order).toEqual(["reconcile finished", "stopped"]);
      expect((await leases.get(lease, { namespace: ns })).spec?.holderIdentity).toBe("");
    } finally {
      detach();
      release.resolve();
      await manager.stop();
    }
  });

  describe.runIf(targetKind === "reference")("with the leader's requests faulted", () => {
    const leaseUpdates = { resource: "leases", verb: "update" } as const;

    /**
     * Faults Lease updates until the leader has stepped down, then makes it leave without touching
     * the Lease again (as a partitioned process would) and lifts the fault: a follower must wait
     * for the Lease to expire before it acts.
     */
    async function faultedTakeover(e: Election, inject: () => void): Promise<Candidate> {
      const first = await e.nextLeader();
      await e.reconciledBy(first, 3);
      const lost = deferred();
      const watchLoss = () => (first.manager.elector?.isLeader ? setImmediate(watchLoss) : lost.resolve());
      inject();
      watchLoss();
      await lost.promise;
      expect(first.manager.controllers.every((c) => !c.running)).toBe(true);
      await first.manager.elector?.stop({ release: false });
      await first.manager.stop();
      t.reference?.faults.reset();
      const next = await e.nextLeader((c) => c !== first);
      await e.reconciledBy(next, 3);
      return next;
    }

    it("stalled Lease updates: the leader stops leading and reconciling, a follower acts only after expiry", async () => {
      const e = await elect(3);
      await faultedTakeover(e, () =>
        t.reference?.faults.addLatency(TIMING.leaseDurationMs * 2, leaseUpdates),
      );
      expect(e.verify()).toEqual([]);
    });

    it("failing Lease updates (500): the leader steps down, exactly one follower takes over after expiry", async () => {
      const e = await elect(3);
      const next = await faultedTakeover(e, () =>
        t.reference?.faults.failNext(1_000_000, { status: 500 }, leaseUpdates),
      );
      expect(e.candidates.filter((c) => c.manager.elector?.isLeader)).toEqual([next]);
      expect(e.verify()).toEqual([]);
    });
  });
});
