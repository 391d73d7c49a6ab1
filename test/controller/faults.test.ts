/**
 * The example operator converges whatever the server did meanwhile: seeded schedules mix spec
 * changes and deletions of WebApps with the reference server's faults (dropped and reset watch
 * streams, torn and malformed events, compaction, restarts that lose history, paused delivery,
 * 429/500/503 answers and latency on the namespace's requests). Once quiet, every WebApp left has
 * a Deployment with its replica count and a status for its generation, and every deleted one is
 * gone together with its Deployment and Service (its finalizer's cleanup ran).
 * KUBESDK_FAULT_SEED=<n> replays one schedule.
 * Reason for reference-only: the faults are the reference server's fault controls.
 */
import type { KubeClient } from "@kubesdk/client";
import { Manager, silentLogger } from "@kubesdk/controller";
import type { RunningServer } from "@kubesdk/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebAppController } from "../../examples/operator/operator.js";
import { API_VERSION, installWebAppCrd, KIND, type WebApp, webApps } from "../../examples/operator/webapp.js";
import { startTarget, type TestTarget, targetKind } from "../support/target.js";
import { clientOf, createNamespace, waitForObject } from "./support.js";

const APPS = 6;
const STEPS = 40;

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function injectFault(server: RunningServer, ns: string, random: () => number): void {
  const f = server.faults;
  const scope = { namespace: ns };
  switch (Math.floor(random() * 9)) {
    case 0:
      f.dropWatches(scope, random() < 0.5 ? "end" : "reset");
      break;
    case 1:
      f.breakMidEvent(scope);
      break;
    case 2:
      f.malformedEvent(scope);
      break;
    case 3:
      f.compact();
      break;
    case 4:
      f.restart();
      break;
    case 5:
      if (random() < 0.5) f.pauseDelivery();
      else f.resumeDelivery();
      break;
    case 6:
      f.failNext(1 + Math.floor(random() * 4), { status: random() < 0.5 ? 500 : 503 }, scope, 0.5);
      break;
    case 7:
      f.failNext(2, { status: 429, retryAfterSeconds: 0 }, scope, 0.5);
      break;
    default:
      f.addLatency(random() < 0.5 ? 0 : Math.floor(random() * 30), scope);
  }
}

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
  let kube: KubeClient;

  beforeAll(async () => {
    t = await startTarget({ watch: { bookmarkIntervalMs: 100 } });
    kube = await clientOf(t);
    await installWebAppCrd(kube);
  });

  afterAll(async () => {
    await kube?.close();
    await t?.close();
  });

  const seeds = process.env.KUBESDK_FAULT_SEED ? [Number(process.env.KUBESDK_FAULT_SEED)] : [1, 2, 3];
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
      const manager = new Manager({ kube, logger: silentLogger });
      manager.add(createWebAppController({ kube, namespace: ns, logger: silentLogger, concurrency: 3 }));
      await manager.start();
      try {
        for (let step = 0; step < STEPS; step++) {
          const name = `app${Math.floor(random() * APPS)}`;
          const roll = random();
          if (roll < 0.4) injectFault(server, ns, random);
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
