/**
 * Scenario 25: whatever faults happened, once quiet the store equals the server's state and the
 * handlers' picture equals the store. A seeded schedule interleaves random writes with dropped and
 * reset streams, compactions, 429/500/503/504 (too-large or not) and resets on lists and watches,
 * slow requests, torn and malformed frames, stalls, paused delivery and restarts.
 * Replay one schedule with KUBESDK_FAULT_SEED=<seed>.
 * Reason for reference-only: the faults are the reference server's fault controls.
 */
import { isDeletedFinalStateUnknown } from "@kubesdk/informer";
import type { KubernetesObject } from "@kubesdk/models";
import { describe, expect, it } from "vitest";
import { targetKind } from "../support/target.js";
import { configMapsPath, nameOf, rvOf, serverState, storeState, untilState } from "./support/harness.js";
import { prng } from "./support/prng.js";
import { deleteConfigMapInStore, seedConfigMaps, updateConfigMapInStore } from "./support/reference.js";
import { useInformerSuite } from "./support/suite.js";

// KUBESDK_FAULT_SEED=<n> replays one schedule; KUBESDK_FAULT_RUNS=<n> runs seeds 1..n (a soak).
const SEEDS = process.env.KUBESDK_FAULT_SEED
  ? [Number(process.env.KUBESDK_FAULT_SEED)]
  : Array.from({ length: Number(process.env.KUBESDK_FAULT_RUNS ?? 4) }, (_, i) => i + 1);
const STEPS = 150;

describe.runIf(targetKind === "reference")("randomised fault schedules", () => {
  const s = useInformerSuite({ watch: { bookmarkIntervalMs: 100 } });

  for (const seed of SEEDS) {
    it(`S25: after a random fault schedule the store equals the server's state once quiet (seed ${seed}; replay with KUBESDK_FAULT_SEED=${seed})`, async () => {
      const random = prng(seed);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
      const ns = await s.namespace(`s25-${seed}`);
      s.server.faults.reseed(seed);
      let next = 0;
      const live = new Set<string>();
      const create = () => {
        const name = `cm-${next++}`;
        seedConfigMaps(s.server, ns, [name]);
        live.add(name);
      };
      for (let i = 0; i < 30; i++) create();

      const informer = s.informer({
        namespace: ns,
        initialList: seed % 2 === 0 ? "stream" : "list",
        pageSize: 7,
        backoff: { initialMs: 5, maxMs: 100 },
        idleTimeoutMs: 400,
        random,
      });
      // The handler's own picture, built only from notifications; it must never see an add for an
      // object it has, or an update or delete for one it lacks.
      const view = new Map<string, string>();
      const violations: string[] = [];
      const marker = `marker-${seed}`;
      let markerSeen = () => {};
      const markerHandled = new Promise<void>((resolve) => {
        markerSeen = resolve;
      });
      informer.addEventHandler({
        add: (o) => {
          if (view.has(nameOf(o))) violations.push(`add of known ${nameOf(o)}`);
          view.set(nameOf(o), rvOf(o));
          if (nameOf(o) === marker) markerSeen();
        },
        update: (a, b) => {
          if (view.get(nameOf(a)) !== rvOf(a)) violations.push(`update of ${nameOf(a)} from an unseen state`);
          view.set(nameOf(b), rvOf(b));
        },
        delete: (o) => {
          const obj = isDeletedFinalStateUnknown(o) ? o.obj : (o as KubernetesObject);
          if (!view.delete(nameOf(obj))) violations.push(`delete of unknown ${nameOf(obj)}`);
        },
      });
      informer.start();
      const faults = s.server.faults;
      const match = { namespace: ns };
      try {
        for (let step = 0; step < STEPS; step++) {
          const roll = random();
          if (roll < 0.45) {
            // Writes: mostly updates, some creates and deletes.
            const n = 1 + Math.floor(random() * 5);
            for (let i = 0; i < n; i++) {
              const r = random();
              if (r < 0.2 || live.size === 0) create();
              else if (r < 0.35) {
                const name = pick([...live]);
                deleteConfigMapInStore(s.server, ns, name);
                live.delete(name);
              } else updateConfigMapInStore(s.server, ns, pick([...live]), { v: String(step) });
            }
          } else {
            const fault = pick([
              "drop",
              "reset",
              "compact",
              "fail",
              "latency",
              "tear",
              "malformed",
              "restart",
              "pause",
              "stall",
            ] as const);
            switch (fault) {
              case "drop":
                faults.dropWatches(match, "end");
                break;
              case "reset":
                faults.dropWatches(match, "reset");
                break;
              case "compact":
                faults.compact();
                break;
              case "fail":
                faults.failNext(
                  1 + Math.floor(random() * 3),
                  pick([
                    { status: 429, retryAfterSeconds: 0 },
                    { status: 500 },
                    { status: 503 },
                    { status: 504 },
                    { status: 504, tooLargeResourceVersion: true },
                    { reset: true },
                  ] as const),
                  { ...match, verb: pick(["list", "watch"]) },
                );
                break;
              case "latency":
                faults.addLatency(Math.floor(random() * 40), match);
                break;
              case "tear":
                faults.breakMidEvent(match);
                create();
                break;
              case "malformed":
                faults.malformedEvent(match);
                create();
                break;
              case "restart":
                faults.restart();
                break;
              case "pause":
                faults.pauseDelivery();
                create();
                updateConfigMapInStore(s.server, ns, pick([...live]), { v: `paused-${step}` });
                await new Promise((r) => setTimeout(r, random() * 30));
                faults.resumeDelivery();
                break;
              case "stall":
                faults.stallWatches(match);
                await new Promise((r) => setTimeout(r, random() * 30));
                faults.unstall();
                break;
            }
          }
          // The schedule itself: let the informer run for a random moment between steps.
          await new Promise((r) => setTimeout(r, random() * 40));
        }

        // Quiet: no more faults, one last write; once it is cached, everything before it is too.
        faults.reset();
        faults.unstall();
        seedConfigMaps(s.server, ns, [marker]);
        live.add(marker);
        await untilState(
          informer,
          () => informer.store.has(`${ns}/${marker}`),
          `seed ${seed}: marker cached`,
          30_000,
        );
        // The handler runs after the store.
        await markerHandled;
        if (process.env.KUBESDK_FAULT_VERBOSE) console.log(seed, JSON.stringify(informer.stats()));

        const expected = await serverState(s.t, configMapsPath(ns));
        expect([...expected.keys()].sort(), `seed ${seed}`).toEqual([...live].sort());
        expect(storeState(informer), `seed ${seed}: store vs server`).toEqual(expected);
        expect(view, `seed ${seed}: handler view vs server`).toEqual(expected);
        expect(violations, `seed ${seed}: spurious notifications`).toEqual([]);
      } finally {
        faults.reset();
        await informer.stop();
      }
    }, 90_000);
  }
});
