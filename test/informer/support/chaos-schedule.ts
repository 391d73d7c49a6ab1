/**
 * One seeded chaos schedule for scenario 25: in its own namespace, an informer runs while the
 * schedule interleaves writes (from two concurrent writers, names re-used after deletes so uids
 * change under a name) with faults: dropped and reset streams, compactions, 429/500/503/504
 * (too-large or not) and resets on lists and watches, latency, torn and malformed frames, stalls,
 * paused delivery and restarts. Then it goes quiet and reports what the audit found.
 *
 * Namespaced faults only touch this schedule; compaction, restart and pausing touch the whole
 * server, so schedules running side by side also suffer each other's.
 */
import type { Informer } from "@kubesdk/informer";
import type { KubernetesObject } from "@kubesdk/models";
import type { RunningServer } from "@kubesdk/server";
import { injectRandomFault } from "../../support/fault-step.js";
import { prng } from "../../support/prng.js";
import type { TestTarget } from "../../support/target.js";
import { EventAudit, type Seen, serverObjects } from "./event-audit.js";
import { storeState, untilState } from "./harness.js";
import { deleteConfigMapInStore, seedConfigMaps, updateConfigMapInStore } from "./reference.js";
import type { SuiteInformerOptions } from "./suite.js";

export interface ScheduleEnv {
  readonly t: TestTarget;
  readonly server: RunningServer;
  namespace(prefix: string): Promise<string>;
  informer(options: SuiteInformerOptions<KubernetesObject>): Informer<KubernetesObject>;
}

export interface ScheduleShape {
  /** Fault-or-write steps of the main writer. */
  readonly steps: number;
  /** Longest pause between steps, ms. */
  readonly maxGapMs: number;
}

export interface ScheduleOutcome {
  readonly seed: number;
  /** Empty when the store, the handlers and the server agree. */
  readonly problems: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runSchedule(
  env: ScheduleEnv,
  seed: number,
  shape: ScheduleShape,
): Promise<ScheduleOutcome> {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const ns = await env.namespace(`s25-${seed}`);
  const faults = env.server.faults;
  const match = { namespace: ns };

  let next = 0;
  const live = new Set<string>();
  const gone: string[] = [];
  const create = () => {
    // A third of creates bring back a deleted name: same key, new uid.
    const name =
      gone.length > 0 && random() < 0.33
        ? (gone.splice(Math.floor(random() * gone.length), 1)[0] as string)
        : `cm-${next++}`;
    seedConfigMaps(env.server, ns, [name]);
    live.add(name);
  };
  const write = (tag: string) => {
    const r = random();
    if (r < 0.2 || live.size === 0) create();
    else if (r < 0.35) {
      const name = pick([...live]);
      deleteConfigMapInStore(env.server, ns, name);
      live.delete(name);
      gone.push(name);
    } else updateConfigMapInStore(env.server, ns, pick([...live]), { v: tag });
  };
  for (let i = 0; i < 20; i++) create();

  const informer = env.informer({
    namespace: ns,
    initialList: seed % 2 === 0 ? "stream" : "list",
    pageSize: 7,
    backoff: { initialMs: 5, maxMs: 100 },
    idleTimeoutMs: 300,
    random,
  });
  const audit = new EventAudit();
  informer.addEventHandler(audit.handlers);
  const marker = `marker-${seed}`;
  const markerHandled = new Promise<void>((resolve) =>
    informer.addEventHandler({
      add: (o) => {
        if (o.metadata?.name === marker) resolve();
      },
    }),
  );
  informer.start();

  // The second writer: writes on its own clock until the main schedule ends.
  let writing = true;
  const writer = (async () => {
    for (let i = 0; writing; i++) {
      write(`w2-${i}`);
      await sleep(random() * shape.maxGapMs * 2);
    }
  })();

  try {
    for (let step = 0; step < shape.steps; step++) {
      if (random() < 0.45) {
        const n = 1 + Math.floor(random() * 5);
        for (let i = 0; i < n; i++) write(String(step));
      } else {
        await injectRandomFault({
          server: env.server,
          match,
          random,
          write: () => {
            create();
            write(`fault-${step}`);
          },
        });
      }
      await sleep(random() * shape.maxGapMs);
    }
    writing = false;
    await writer;

    // Quiet: this schedule's latency rule goes; one last write, and once it is handled everything
    // before it is too (leftover failNext rules are counted and run out on the informer's retries).
    faults.addLatency(0, match);
    seedConfigMaps(env.server, ns, [marker]);
    live.add(marker);
    await untilState(
      informer,
      () => informer.store.has(`${ns}/${marker}`),
      `seed ${seed}: marker cached`,
      30_000,
    );
    await markerHandled;
    if (process.env.KUBESDK_FAULT_VERBOSE) console.log(seed, JSON.stringify(informer.stats()));

    const server = await serverObjects(env.t, ns);
    return { seed, problems: compare(server, live, storeState(informer), audit) };
  } finally {
    writing = false;
    await writer;
    await informer.stop();
  }
}

function compare(
  server: ReadonlyMap<string, Seen>,
  live: ReadonlySet<string>,
  store: ReadonlyMap<string, string>,
  audit: EventAudit,
): string[] {
  const problems: string[] = [];
  const serverNames = [...server.keys()].sort().join(",");
  if (serverNames !== [...live].sort().join(","))
    problems.push(`server holds ${serverNames}, the schedule wrote ${[...live].sort().join(",")}`);
  const want = new Map([...server].map(([name, s]) => [name, s.rv]));
  for (const [name, rv] of want) {
    if (store.get(name) !== rv)
      problems.push(`store: ${name} is ${store.get(name) ?? "missing"}, server ${rv}`);
  }
  for (const name of store.keys())
    if (!want.has(name)) problems.push(`store keeps ${name}, gone from the server`);
  return [...problems, ...audit.check(server)];
}
