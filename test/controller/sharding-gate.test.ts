/**
 * The sharding gate in one process against a server: the fence noticed synchronously after a
 * clock jump (what a process resumed from SIGSTOP sees before any timer runs), and the handoff
 * order on a join (the old owner stops admitting and aborts moved keys before it publishes the new
 * view; the new owner admits a moved key only after that). sharding-processes.test.ts does the
 * same with real processes and signals.
 */
import type { Kube } from "@kubesdk/client";
import {
  type Clock,
  SHARD_GROUP_LABEL,
  Sharding,
  shardOwner,
  silentLogger,
  systemClock,
} from "@kubesdk/controller";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import { clientOf, createNamespace, deferred } from "./support.js";

const TIMING = { leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 100 };
const KEYS = Array.from({ length: 40 }, (_, i) => `ns/k-${i}`);

/** The system clock, plus a jump the test makes (no timer runs during it). */
function jumpingClock(): Clock & { jump(ms: number): void } {
  let offset = 0;
  return {
    now: () => systemClock.now() + offset,
    wallTime: () => systemClock.wallTime(),
    setTimer: (fn, ms) => systemClock.setTimer(fn, ms),
    jump: (ms) => {
      offset += ms;
    },
  };
}

describe("sharding gate", () => {
  let t: TestTarget;
  let kube: Kube;
  let ns: string;

  beforeAll(async () => {
    t = await startTarget();
    kube = await clientOf(t);
    ns = await createNamespace(kube, "shard-gate");
  });

  afterAll(async () => {
    await kube
      ?.resource("v1", "Namespace")
      .delete(ns)
      .catch(() => {});
    await kube?.close();
    await t?.close();
  });

  function member(
    group: string,
    identity: string,
    clock: Clock = systemClock,
    onView?: (v: readonly string[]) => void,
  ) {
    return new Sharding({
      kube,
      name: group,
      namespace: ns,
      identity,
      ...TIMING,
      clock,
      logger: silentLogger,
      ...(onView ? { onViewPublished: onView } : {}),
    });
  }

  /** Starts `s` and resolves once `count` more keys were enqueued in total. */
  function enqueueCounter(s: Sharding) {
    const enqueued: string[] = [];
    const waiters: { n: number; resolve: () => void }[] = [];
    s.start({
      keys: () => KEYS,
      enqueue: (k) => {
        enqueued.push(k);
        for (const w of waiters.filter((x) => enqueued.length >= x.n)) w.resolve();
      },
    });
    return {
      enqueued,
      reach(n: number): Promise<void> {
        if (enqueued.length >= n) return Promise.resolve();
        const d = deferred();
        waiters.push({ n, resolve: d.resolve });
        return d.promise;
      },
    };
  }

  it("a clock jump past the renew deadline fences at once: admits false, signals aborted, until renewed", async () => {
    const clock = jumpingClock();
    const s = member(uniqueName("fence"), "solo", clock);
    const q = enqueueCounter(s);
    try {
      await q.reach(KEYS.length);
      expect(KEYS.every((k) => s.admits(k))).toBe(true);
      const signal = s.signal("ns/k-0");
      clock.jump(TIMING.renewDeadlineMs);
      // No timer or I/O ran since the jump: the lapse is noticed by the synchronous check itself.
      expect(signal.aborted).toBe(false);
      expect(s.admits("ns/k-0")).toBe(false);
      expect(signal.aborted).toBe(true);
      expect(KEYS.some((k) => s.admits(k))).toBe(false);
      // After a renewal and a fresh read, every key is admitted (and enqueued) again.
      await q.reach(2 * KEYS.length);
      expect(KEYS.every((k) => s.admits(k))).toBe(true);
      expect(s.signal("ns/k-0").aborted).toBe(false);
      expect(signal.aborted).toBe(true);
    } finally {
      await s.stop();
    }
    const leases = await kube
      .resource("coordination.k8s.io/v1", "Lease")
      .list({ namespace: ns, labelSelector: { [SHARD_GROUP_LABEL]: "solo" } });
    expect(leases.items).toEqual([]);
  });

  it("join: the old owner drops and aborts moved keys before publishing; the newcomer admits them only then", async () => {
    const group = uniqueName("join");
    const problems: string[] = [];
    const a: Sharding = member(group, "a", systemClock, (view) => {
      if (view.length < 2) return;
      // Called once the Lease stored the view: every moved key must already be out of a's hands.
      for (const k of moved) {
        if (a.admits(k)) problems.push(`a still admits ${k} after publishing ${view}`);
        if (!signals.get(k)?.aborted) problems.push(`a's reconcile of ${k} was not aborted`);
      }
    });
    const moved = KEYS.filter((k) => shardOwner(k, ["a", "b"]) === "b");
    const signals = new Map<string, AbortSignal>();
    const qa = enqueueCounter(a);
    await qa.reach(KEYS.length);
    for (const k of KEYS) signals.set(k, a.signal(k));
    const b = member(group, "b");
    const enqueuedByB: string[] = [];
    const bDone = deferred();
    b.start({
      keys: () => KEYS,
      enqueue: (k) => {
        // b admits a moved key only after a's Lease stopped claiming it, so a let it go already.
        if (a.admits(k) || !signals.get(k)?.aborted) problems.push(`b took ${k} while a still held it`);
        enqueuedByB.push(k);
        if (enqueuedByB.length === moved.length) bDone.resolve();
      },
    });
    try {
      await bDone.promise;
      expect(problems).toEqual([]);
      expect(enqueuedByB.sort()).toEqual([...moved].sort());
      // Keys that stayed with a were never interrupted.
      for (const k of KEYS.filter((x) => !moved.includes(x))) {
        expect(signals.get(k)?.aborted).toBe(false);
        expect(a.admits(k)).toBe(true);
      }
      for (const k of moved) expect(b.admits(k)).toBe(true);
    } finally {
      await b.stop();
      await a.stop();
    }
  });
});
