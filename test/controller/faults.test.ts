/**
 * The example operator converges whatever the server did meanwhile: seeded schedules mix spec
 * changes and deletions of WebApps with the faults of the informer's chaos schedules
 * (test/support/fault-step.ts: dropped and reset watch streams, torn and malformed events,
 * compaction, restarts that lose history, paused delivery, stalls, 429/500/503/504 answers and
 * resets on lists and watches, latency). Once quiet, every WebApp left has
 * a Deployment with its replica count and a status for its generation, and every deleted one is
 * gone together with its Deployment and Service (its finalizer's cleanup ran).
 * KUBESDK_FAULT_SEED=<n> replays one schedule; KUBESDK_FAULT_RUNS=<n> runs seeds 1..n (default 8).
 * Reason for reference-only: the faults are the reference server's fault controls.
 */
import type { Kube } from "@kubesdk/client";
import { Manager, silentLogger } from "@kubesdk/controller";
import { InformerFactory } from "@kubesdk/informer";
import type { RunningServer } from "@kubesdk/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebAppController } from "../../examples/operator/operator.js";
import { API_VERSION, installWebAppCrd, KIND, type WebApp, webApps } from "../../examples/operator/webapp.js";
import { injectRandomFault } from "../support/fault-step.js";
import { prng } from "../support/prng.js";
import { startTarget, type TestTarget, targetKind } from "../support/target.js";
import { clientOf, createNamespace, waitForObject } from "./support.js";

const APPS = 6;
const STEPS = 40;

async function retry<T>(op: () => Promise<T>): Promise<T | undefined> {
  for (let i = 0; ; i++) {
    try {
      return await op();
    } catch (err) {
      if (i >= 20) throw err;
    }
  }
}

describe.runIf(targetKind === "reference")("operator under fault schedules", () => {
  let t: TestTarget;
  let kube: Kube;

  beforeAll(async () => {
    t = await startTarget({ watch: { bookmarkIntervalMs: 100 } });
    kube = await clientOf(t);
    await installWebAppCrd(kube);
  });

  afterAll(async () => {
    await kube?.close();
    await t?.close();
  });

  const runs = Number(process.env.KUBESDK_FAULT_RUNS ?? 8);
  const seeds = process.env.KUBESDK_FAULT_SEED
    ? [Number(process.env.KUBESDK_FAULT_SEED)]
    : Array.from({ length: runs }, (_, i) => i + 1);
  for (const seed of seeds) {
    it(`converges after fault schedule ${seed} (replay with KUBESDK_FAULT_SEED=${seed})`, async () => {
      const server = t.reference as RunningServer;
      server.faults.reseed(seed);
      const random = prng(seed);
      const ns = await createNamespace(kube, `chaos${seed}`);
      const apps = webApps(kube);
      const replicas = new Map<string, number>();
      const deleted = new Set<string>();
      for (let i = 0; i < APPS; i++) {
        const app: WebApp = {
          apiVersion: API_VERSION,
          kind: KIND,
          metadata: { name: `app${i}` },
          spec: { image: "nginx", replicas: 1 },
        };
        await apps.create(app, { namespace: ns });
        replicas.set(`app${i}`, 1);
      }
      // A stalled watch is only noticed by the informers' idle watchdog: make it fire within the test
      // (the server sends bookmarks every 100 ms), as the informer's chaos schedules do.
      const informers = new InformerFactory(kube, { idleTimeoutMs: 1000 });
      const manager = new Manager({ kube, logger: silentLogger, informers });
      createWebAppController(manager, { namespace: ns, logger: silentLogger, concurrency: 3 });
      await manager.start();
      try {
        for (let step = 0; step < STEPS; step++) {
          const name = `app${Math.floor(random() * APPS)}`;
          const roll = random();
          if (roll < 0.4)
            await injectRandomFault({
              server,
              match: { namespace: ns },
              random,
              // A write that meets the torn or malformed frame, or lands while delivery is paused.
              write: async () => {
                if (deleted.has(name)) return;
                const patch = { metadata: { annotations: { touched: String(step) } } };
                await retry(() => apps.patch(name, { type: "merge", patch }, { namespace: ns }));
              },
            });
          else if (roll < 0.9 && !deleted.has(name)) {
            const n = Math.floor(random() * 5);
            await retry(() =>
              apps.patch(name, { type: "merge", patch: { spec: { replicas: n } } }, { namespace: ns }),
            );
            replicas.set(name, n);
          } else if (!deleted.has(name) && deleted.size < APPS - 2) {
            await retry(() => apps.delete(name, { namespace: ns }));
            deleted.add(name);
          }
        }
        server.faults.reset();
        for (const [name, n] of replicas) {
          const deployments = kube.resource("apps/v1", "Deployment");
          if (deleted.has(name)) {
            expect(await waitForObject(apps, ns, name, (a) => a === undefined)).toBeUndefined();
            expect(await waitForObject(deployments, ns, name, (d) => d === undefined)).toBeUndefined();
            continue;
          }
          const d = await waitForObject(deployments, ns, name, (x) => x?.spec?.replicas === n);
          expect(d?.spec?.replicas).toBe(n);
          const app = await waitForObject(
            apps,
            ns,
            name,
            (a) => a !== undefined && a.status?.observedGeneration === a.metadata?.generation,
          );
          expect(app?.spec.replicas).toBe(n);
        }
      } finally {
        server.faults.reset();
        await manager.stop();
      }
    }, 120_000);
  }
});
