/**
 * Sharding across OS processes: three replicas (support/sharded-replica.ts), each a 4-worker
 * sharded controller over the same ConfigMaps, logging every reconcile with CLOCK_MONOTONIC
 * timestamps to one shared file. One run walks through: one replica alone, two joins, a pause longer
 * than the lease (SIGSTOP/SIGCONT, with reconciles in flight and keys waiting on requeue timers), a
 * graceful leave (SIGTERM) and a crash (SIGKILL). After each change the test waits — on the Lease
 * state (every member's Lease publishes the new view) and on log lines (every key reconciled by its
 * new owner after that) — and finally checks the whole log:
 * - no key was reconciled by two replicas in overlapping intervals (committed reconciles);
 * - every committed reconcile during a change was made by the key's owner before or after it, so
 *   only keys whose owner changed moved.
 * KUBESDK_SHARDING_RUNS repeats the walk (`pnpm test:sharding`: 10 runs by default, 5 in CI).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { Kube } from "@kubesdk/client";
import { SHARD_GROUP_LABEL, SHARD_VIEW_ANNOTATION, shardOwner } from "@kubesdk/controller";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import { overlaps, type Phase, parseLine, readLog, strayReconciles } from "./support/sharding-log.js";
import { clientOf, createNamespace } from "./support.js";

const TIMING = { leaseDurationMs: 1000, renewDeadlineMs: 600, retryPeriodMs: 100 };
const RUNS = Number(process.env.KUBESDK_SHARDING_RUNS ?? 1);
const KEYS = 24;
/** A guard against hangs only: a wait that passes it fails with what it was waiting for. */
const WAIT_GUARD_MS = 30_000;
const START_GUARD_MS = 120_000;
const replicaScript = fileURLToPath(new URL("./support/sharded-replica.ts", import.meta.url));

class Group {
  readonly log: string;
  readonly phases: Phase[] = [];
  readonly procs = new Map<string, ChildProcess>();
  /** Per key: the committed reconciles seen on the replicas' stdout (identity, start). */
  readonly seen = new Map<string, { id: string; start: bigint }[]>();
  readonly leaseViews = new Map<string, string>();
  readonly ready = new Set<string>();
  readonly #waiters = new Set<() => void>();
  #watch = new AbortController();

  constructor(
    readonly t: TestTarget,
    readonly kube: Kube,
    readonly ns: string,
    readonly name: string,
    readonly keys: readonly string[],
  ) {
    this.log = join(mkdtempSync(join(tmpdir(), "sharding-")), "reconciles.log");
    void this.#watchLeases();
  }

  spawn(id: string): void {
    const { leaseDurationMs, renewDeadlineMs, retryPeriodMs } = TIMING;
    const args = [
      this.t.kubeconfigPath,
      this.ns,
      this.name,
      id,
      this.log,
      leaseDurationMs,
      renewDeadlineMs,
      retryPeriodMs,
    ];
    const proc = spawn(
      process.execPath,
      ["--conditions=source", "--import", "tsx", replicaScript, ...args.map(String)],
      {
        stdio: ["pipe", "pipe", "inherit"],
        env: { ...process.env, NODE_TLS_REJECT_UNAUTHORIZED: undefined },
      },
    );
    this.procs.set(id, proc);
    createInterface({ input: proc.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      if (line === "ready") {
        this.ready.add(id);
        this.#notify();
      }
      if (!line.startsWith("log ")) return;
      const r = parseLine(line.slice(4));
      if (r?.end === undefined) return;
      this.seen.set(r.key, [...(this.seen.get(r.key) ?? []).slice(-20), { id: r.id, start: r.start }]);
      this.#notify();
    });
  }

  /** Records the change about to be made (from now on `members` is the membership). */
  change(what: string, members: readonly string[]): void {
    this.phases.push({ what, members: [...members].sort(), at: process.hrtime.bigint() });
  }

  start(id: string): void {
    this.procs.get(id)?.stdin?.write("start\n");
  }

  signal(id: string, signal: NodeJS.Signals): void {
    this.procs.get(id)?.kill(signal);
  }

  exited(id: string): Promise<void> {
    const proc = this.procs.get(id) as ChildProcess;
    if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => proc.once("exit", () => resolve()));
  }

  /** Waits until every member's Lease publishes `members` and then every key was reconciled by its owner. */
  async converge(): Promise<void> {
    const phase = this.phases.at(-1) as Phase;
    const view = JSON.stringify(phase.members);
    await this.until(`leases publish ${view}`, () =>
      phase.members.every((m) => this.leaseViews.get(m) === view),
    );
    const after = process.hrtime.bigint();
    await this.until(`every key reconciled by its owner under ${view}`, () =>
      this.keys.every((k) =>
        (this.seen.get(k) ?? []).some((r) => r.start > after && r.id === shardOwner(k, phase.members)),
      ),
    );
  }

  until(what: string, done: () => boolean, guardMs = WAIT_GUARD_MS): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const guard = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error(`still waiting: ${what}; leases: ${JSON.stringify([...this.leaseViews])}`));
      }, guardMs);
      const check = () => {
        if (!done()) return;
        clearTimeout(guard);
        this.#waiters.delete(check);
        resolve();
      };
      this.#waiters.add(check);
    });
  }

  async close(): Promise<void> {
    this.#watch.abort();
    for (const proc of this.procs.values()) {
      if (proc.exitCode !== null || proc.signalCode !== null) continue;
      const gone = new Promise((resolve) => proc.once("exit", resolve));
      proc.kill("SIGKILL");
      await gone;
    }
  }

  #notify(): void {
    for (const check of [...this.#waiters]) check();
  }

  async #watchLeases(): Promise<void> {
    const leases = this.kube.resource("coordination.k8s.io/v1", "Lease");
    const labelSelector = { [SHARD_GROUP_LABEL]: this.name };
    const signal = this.#watch.signal;
    while (!signal.aborted) {
      try {
        const list = await leases.list({ namespace: this.ns, labelSelector, signal });
        this.leaseViews.clear();
        for (const l of list.items) this.#record(l.spec?.holderIdentity, l.metadata?.annotations);
        this.#notify();
        const events = leases.watch({
          namespace: this.ns,
          labelSelector,
          resourceVersion: list.metadata?.resourceVersion ?? "",
          signal,
        });
        for await (const e of events) {
          if (e.type === "BOOKMARK") continue;
          if (e.type === "DELETED") this.leaseViews.delete(e.object.spec?.holderIdentity ?? "");
          else this.#record(e.object.spec?.holderIdentity, e.object.metadata?.annotations);
          this.#notify();
        }
      } catch {
        // The watch ended (or the test is closing): list again.
      }
    }
  }

  #record(holder: string | undefined, annotations: Record<string, string> | undefined): void {
    if (holder) this.leaseViews.set(holder, annotations?.[SHARD_VIEW_ANNOTATION] ?? "");
  }
}

/** A hang guard, not a timing assertion: on a loaded machine one run takes well over a minute. */
const RUN_GUARD_MS = 600_000;

describe("sharding across processes", () => {
  let t: TestTarget;
  let kube: Kube;

  beforeAll(async () => {
    t = await startTarget();
    kube = await clientOf(t);
  });

  afterAll(async () => {
    await kube?.close();
    await t?.close();
  });

  for (let run = 0; run < RUNS; run++) {
    it(
      `join, pause past the lease, graceful leave, crash: no overlap, only moved keys move (run ${run + 1}/${RUNS})`,
      async () => {
        const ns = await createNamespace(kube, "sharding");
        const keys: string[] = [];
        for (let i = 0; i < KEYS; i++) {
          await kube.resource("v1", "ConfigMap").create({ metadata: { name: `cm-${i}` } }, { namespace: ns });
          keys.push(`${ns}/cm-${i}`);
        }
        const g = new Group(t, kube, ns, uniqueName("shard"), keys);
        const [a, b, c] = ["a", "b", "c"].map((x) => `${x}-${process.pid}-${run}`) as [
          string,
          string,
          string,
        ];
        try {
          for (const id of [a, b, c]) g.spawn(id);
          // Loading the SDK through tsx takes a while on a busy machine; no change is timed from here.
          await g.until("replicas loaded", () => g.ready.size === 3, START_GUARD_MS);
          g.change("a alone", [a]);
          g.start(a);
          await g.converge();
          g.change("b joins", [a, b]);
          g.start(b);
          await g.converge();
          g.change("c joins", [a, b, c]);
          g.start(c);
          await g.converge();

          const stoppedAt = performance.now();
          g.change("b paused", [a, c]);
          g.signal(b, "SIGSTOP");
          await g.converge();
          const pausedMs = performance.now() - stoppedAt;
          g.change("b resumed", [a, b, c]);
          g.signal(b, "SIGCONT");
          await g.converge();

          g.change("c leaves (SIGTERM)", [a, b]);
          g.signal(c, "SIGTERM");
          await g.exited(c);
          await g.converge();
          expect(g.procs.get(c)?.exitCode).toBe(0);

          g.change("a crashes (SIGKILL)", [b]);
          g.signal(a, "SIGKILL");
          await g.converge();

          const log = readLog(g.log);
          const fenced = log.filter((r) => r.end === undefined).length;
          console.log(
            `sharding run ${run + 1}: ${log.length - fenced} committed reconciles, ${fenced} fenced out, b paused ${Math.round(pausedMs)} ms`,
          );
          expect(overlaps(log)).toEqual([]);
          expect(strayReconciles(log, g.phases)).toEqual([]);
          // The others took b's keys only after its Lease expired, so the pause outlasted the lease.
          expect(pausedMs).toBeGreaterThan(TIMING.leaseDurationMs);
          // Each change moved keys, and each replica reconciled some.
          for (const id of [a, b, c]) expect(log.some((r) => r.id === id && r.end !== undefined)).toBe(true);
        } finally {
          await g.close();
          await kube
            .resource("v1", "Namespace")
            .delete(ns)
            .catch(() => {});
        }
      },
      RUN_GUARD_MS,
    );
  }
});
