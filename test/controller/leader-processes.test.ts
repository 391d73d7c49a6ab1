/**
 * Leader election across separate OS processes, on the reference server and on kube-apiserver.
 * Each candidate is its own process (test/controller/leader-processes/candidate.ts: a Manager with a
 * 4-worker controller whose keys always wait on requeue timers; client-go's
 * scripts/client-go-check/leader) appending every reconcile as a CLOCK_MONOTONIC interval to one
 * shared log. Checked in every case: no two identities reconcile in overlapping intervals, and
 * takeover happens within client-go's bound (lease duration + 2 × 1.2 × retry period after the
 * holder stopped renewing, plus SLACK_MS for process scheduling on a loaded machine).
 *
 * KUBESDK_LEADER_REPEAT=N runs the pause, kill and fault cases N times (`pnpm test:leader` uses 10).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KubeClient } from "@kubesdk/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, targetKind, uniqueName } from "../support/target.js";
import {
  buildClientGoCandidate,
  bundleKubesdkCandidate,
  type Candidate,
  type Election,
  killAll,
  type LogEntry,
  monotonicNow,
  ms,
  overlaps,
  parseLog,
  signal,
  startClientGo,
  startKubesdk,
  type Timing,
  until,
} from "./leader-processes/harness.js";
import { clientOf, createNamespace } from "./support.js";

const TIMING: Timing = { leaseMs: 3000, renewMs: 2000, retryMs: 500 };
/** Process scheduling allowance on top of client-go's bound (raise it on a heavily loaded machine). */
const SLACK_MS = Number(process.env.KUBESDK_LEADER_SLACK_MS ?? "1500");
const TAKEOVER_BOUND_MS = TIMING.leaseMs + 2 * 1.2 * TIMING.retryMs + SLACK_MS;
const REPEAT = Number(process.env.KUBESDK_LEADER_REPEAT ?? "1");
/** A hang guard, not a timing assertion: candidates start slowly on a loaded machine. */
const CASE_TIMEOUT_MS = 600_000;

describe("leader election across OS processes", () => {
  let t: TestTarget;
  let kube: KubeClient;
  let ns: string;
  let running: Candidate[] = [];
  let bundle: string;
  const logDir = mkdtempSync(join(tmpdir(), "kubesdk-leader-"));

  beforeAll(async () => {
    bundle = await bundleKubesdkCandidate();
    t = await startTarget();
    kube = await clientOf(t);
    ns = await createNamespace(kube, "leaderproc");
    for (let i = 0; i < 8; i++)
      await kube.resource("v1", "ConfigMap").create({ metadata: { name: `cm-${i}` } }, { namespace: ns });
  });

  afterEach(async () => {
    t.reference?.faults.reset();
    const failed = running.filter((c) => c.process.exitCode !== null && c.process.exitCode !== 0);
    for (const c of failed) console.error(`${c.id} exited ${c.process.exitCode}: ${c.stderr()}`);
    await killAll(running);
    running = [];
  });

  afterAll(async () => {
    await kube
      ?.resource("v1", "Namespace")
      .delete(ns)
      .catch(() => {});
    await kube?.close();
    await t?.close();
  });

  function election(): Election {
    const lease = uniqueName("lease");
    return {
      kubeconfig: t.kubeconfigPath,
      namespace: ns,
      lease,
      log: join(logDir, `${lease}.log`),
      timing: TIMING,
    };
  }

  function start(e: Election, ids: readonly string[]): Candidate[] {
    const started = ids.map((id) => startKubesdk(e, id, bundle));
    running.push(...started);
    return started;
  }

  async function holder(e: Election): Promise<string> {
    const lease = await kube
      .resource("coordination.k8s.io/v1", "Lease")
      .get(e.lease, { namespace: ns })
      .catch(() => undefined);
    return lease?.spec?.holderIdentity ?? "";
  }

  const work = (entries: readonly LogEntry[], id: string, after = 0n) =>
    entries.filter((x) => x.id === id && x.kind === "work" && x.start > after);
  const event = (entries: readonly LogEntry[], id: string, kind: LogEntry["kind"], after = 0n) =>
    entries.find((x) => x.id === id && x.kind === kind && "at" in x && x.at > after) as
      | { at: bigint }
      | undefined;

  /** The holder of the Lease among `ids`, once it has logged `n` reconciles after `after`. */
  async function leaderAmong(e: Election, ids: readonly string[], n: number, after = 0n): Promise<string> {
    return until(`a leader among ${ids.join(",")} reconciling`, async () => {
      const h = await holder(e);
      return ids.includes(h) && work(parseLog(e.log), h, after).length >= n ? h : undefined;
    });
  }

  /** The candidate that took over after `since`: when it started leading, relative to `since`. */
  function takeoverMs(e: Election, id: string, since: bigint): number {
    const led = event(parseLog(e.log), id, "leading", since);
    if (led === undefined) throw new Error(`${id} logged no "leading" after ${since}`);
    return ms(led.at - since);
  }

  function expectSafe(e: Election): void {
    expect(overlaps(parseLog(e.log))).toEqual([]);
  }

  for (let run = 1; run <= REPEAT; run++) {
    it(
      `SIGSTOP of the leader longer than the lease: the woken ex-leader starts no reconcile, no overlap (run ${run})`,
      async () => {
        const e = election();
        const ids = ["a", "b", "c"];
        const candidates = start(e, ids);
        const first = await leaderAmong(e, ids, 8);
        const paused = candidates.find((c) => c.id === first) as Candidate;
        const stoppedAt = monotonicNow();
        signal(paused, "SIGSTOP");
        const others = ids.filter((id) => id !== first);
        const next = await leaderAmong(e, others, 4, stoppedAt);
        const pausedMs = ms(monotonicNow() - stoppedAt);
        const resumedAt = monotonicNow();
        signal(paused, "SIGCONT");
        // The ex-leader notices the loss; the new leader keeps reconciling meanwhile.
        await until(`${first} to stop leading`, () => event(parseLog(e.log), first, "stopped", resumedAt));
        await until(
          `${next} to go on`,
          () => work(parseLog(e.log), next, resumedAt).length >= 8 || undefined,
        );
        const log = parseLog(e.log);
        expect(pausedMs).toBeGreaterThan(TIMING.leaseMs);
        expect(work(log, first, stoppedAt)).toEqual([]);
        expectSafe(e);
        expect(takeoverMs(e, next, stoppedAt)).toBeLessThanOrEqual(TAKEOVER_BOUND_MS);
      },
      CASE_TIMEOUT_MS,
    );

    it(
      `SIGKILL of the leader: one follower takes over after expiry, no overlap (run ${run})`,
      async () => {
        const e = election();
        const ids = ["a", "b", "c"];
        const candidates = start(e, ids);
        const first = await leaderAmong(e, ids, 8);
        const killedAt = monotonicNow();
        signal(candidates.find((c) => c.id === first) as Candidate, "SIGKILL");
        const next = await leaderAmong(
          e,
          ids.filter((id) => id !== first),
          8,
          killedAt,
        );
        expectSafe(e);
        expect(takeoverMs(e, next, killedAt)).toBeLessThanOrEqual(TAKEOVER_BOUND_MS);
      },
      CASE_TIMEOUT_MS,
    );

    // Fault injection exists on the reference server only; on kube-apiserver the stalled leader is
    // the SIGSTOP case above, so these cases are not declared there (rather than declared and skipped).
    if (targetKind === "reference")
      describe("with the leader's Lease updates faulted", () => {
        const leaseUpdates = { resource: "leases", verb: "update" } as const;
        for (const [what, inject] of [
          ["stalled", () => t.reference?.faults.addLatency(TIMING.leaseMs * 2, leaseUpdates)],
          ["failing (500)", () => t.reference?.faults.failNext(1_000_000, { status: 500 }, leaseUpdates)],
        ] as const)
          it(
            `${what} Lease updates: the leader stops within the renew deadline, no overlap (run ${run})`,
            async () => {
              const e = election();
              const ids = ["a", "b", "c"];
              start(e, ids);
              const first = await leaderAmong(e, ids, 8);
              const injectedAt = monotonicNow();
              inject();
              // Its last lifecycle line is "stopped" (under load it may have lapsed just before the fault).
              const stopped = await until(`${first} to step down`, () => {
                const last = parseLog(e.log)
                  .filter((x) => x.id === first && (x.kind === "leading" || x.kind === "stopped"))
                  .at(-1);
                return last !== undefined && last.kind === "stopped" && "at" in last ? last : undefined;
              });
              t.reference?.faults.reset();
              const liftedAt = monotonicNow();
              await leaderAmong(e, ids, 8, liftedAt);
              expect(ms(stopped.at - injectedAt)).toBeLessThanOrEqual(TIMING.renewMs + SLACK_MS);
              expectSafe(e);
            },
            CASE_TIMEOUT_MS,
          );
      });
  }

  it(
    "SIGTERM: the leader finishes, releases the Lease (client-go's release record), a follower takes over at once",
    async () => {
      const e = election();
      const ids = ["a", "b"];
      const candidates = start(e, ids);
      const first = await leaderAmong(e, ids, 8);
      const leases = kube.resource("coordination.k8s.io/v1", "Lease");
      const before = (await leases.get(e.lease, { namespace: ns })).spec;
      const termAt = monotonicNow();
      signal(candidates.find((c) => c.id === first) as Candidate, "SIGTERM");
      const next = await leaderAmong(
        e,
        ids.filter((id) => id !== first),
        4,
        termAt,
      );
      const exited = event(parseLog(e.log), first, "exited", termAt);
      expect(exited).toBeDefined();
      const after = (await leases.get(e.lease, { namespace: ns })).spec;
      expect(after?.holderIdentity).toBe(next);
      expect(after?.leaseTransitions).toBe((before?.leaseTransitions ?? 0) + 1);
      expect(after?.leaseDurationSeconds).toBe(TIMING.leaseMs / 1000);
      expect(after?.acquireTime).not.toBe(before?.acquireTime);
      // Released: no wait for expiry, only for the follower's next retry.
      expect(takeoverMs(e, next, termAt)).toBeLessThan(TIMING.leaseMs + SLACK_MS);
      expectSafe(e);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    "a holder that published a longer lease than the candidate's own is waited out for the published duration",
    async () => {
      const e = election();
      const published = 2 * (TIMING.leaseMs / 1000);
      const wall = new Date().toISOString().replace(/(\.\d{3})Z$/, "$1000Z");
      await kube.resource("coordination.k8s.io/v1", "Lease").create(
        {
          metadata: { name: e.lease },
          spec: {
            holderIdentity: "ghost",
            leaseDurationSeconds: published,
            acquireTime: wall,
            renewTime: wall,
          },
        },
        { namespace: ns },
      );
      const writtenAt = monotonicNow();
      start(e, ["a"]);
      await leaderAmong(e, ["a"], 1);
      // The candidate saw the record no earlier than it was written: it may act only `published` later.
      expect(takeoverMs(e, "a", writtenAt)).toBeGreaterThanOrEqual(published * 1000);
      expectSafe(e);
    },
    CASE_TIMEOUT_MS,
  );

  describe("mixed with client-go candidates", () => {
    let binary: string;
    beforeAll(() => {
      binary = buildClientGoCandidate();
    }, 300_000);

    it(
      "leadership passes client-go → kubesdk → client-go → kubesdk → client-go, by release and by expiry",
      async () => {
        const e = election();
        const go = (id: string) => {
          const c = startClientGo(e, id, binary);
          running.push(c);
          return c;
        };
        const ts = (id: string) => start(e, [id])[0] as Candidate;
        const steps: { from: Candidate; to: Candidate; how: NodeJS.Signals }[] = [];
        let leader = go("go-1");
        await leaderAmong(e, [leader.id], 4);
        const plan: [() => Candidate, NodeJS.Signals][] = [
          [() => ts("ts-1"), "SIGTERM"],
          [() => go("go-2"), "SIGTERM"],
          [() => ts("ts-2"), "SIGKILL"],
          [() => go("go-3"), "SIGKILL"],
        ];
        for (const [make, how] of plan) {
          const follower = make();
          // The follower is campaigning once it logged "ready" (kubesdk) or, for client-go, at once.
          if (follower.kind === "kubesdk")
            await until(`${follower.id} ready`, () => event(parseLog(e.log), follower.id, "ready"));
          const at = monotonicNow();
          signal(leader, how);
          await leaderAmong(e, [follower.id], 4, at);
          const took = takeoverMs(e, follower.id, at);
          expect(took).toBeLessThanOrEqual(how === "SIGTERM" ? TIMING.leaseMs + SLACK_MS : TAKEOVER_BOUND_MS);
          steps.push({ from: leader, to: follower, how });
          leader = follower;
        }
        expect(steps.map((s) => `${s.from.id}→${s.to.id}`)).toEqual([
          "go-1→ts-1",
          "ts-1→go-2",
          "go-2→ts-2",
          "ts-2→go-3",
        ]);
        expectSafe(e);
      },
      CASE_TIMEOUT_MS,
    );
  });
});
