/**
 * Informer demo (issue 7): an informer caching ConfigMaps survives a dropped stream, a torn frame, a
 * malformed line and a compaction without losing or inventing a single event.
 *
 *   node --conditions=source --import tsx scripts/demo/informer-demo.ts              # embedded server
 *   node --conditions=source --import tsx scripts/demo/informer-demo.ts --real [--kubeconfig PATH]
 *
 * It seeds objects, starts the informer with a live log of events and cache size, then runs phases of
 * writes (with faults on the reference server), and after each phase waits until the cache and the
 * handler's picture equal the server. The exit code is 0 only when the final check passes: store ==
 * server, handler view == server, and the notifications by type equal what the writes imply.
 * With --real (or KUBECONFIG set and --real) it uses that cluster, in a namespace it creates and deletes.
 */

import { Informer, isDeletedFinalStateUnknown } from "@kubesdk/informer";
import type { KubernetesObject } from "@kubesdk/models";
import { DEMO_LABEL, type DemoCluster, openDemoCluster } from "./demo-cluster.js";

interface Args {
  readonly real: boolean;
  readonly kubeconfig: string | undefined;
  readonly objects: number;
}

function parseArgs(argv: readonly string[]): Args {
  let real = false;
  let kubeconfig = process.env.KUBECONFIG;
  let objects = 120;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--real") real = true;
    else if (arg === "--kubeconfig") kubeconfig = argv[++i];
    else if (arg === "--objects") objects = Number(argv[++i]);
    else
      throw new Error(
        `unknown argument ${arg}; usage: informer-demo.ts [--real] [--kubeconfig PATH] [--objects N]`,
      );
  }
  if (!Number.isInteger(objects) || objects < 1) throw new Error("--objects needs a whole number ≥ 1");
  return { real, kubeconfig: real ? kubeconfig : undefined, objects };
}

const started = performance.now();
const say = (line: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(2)}s] ${line}`);
const nameOf = (o: KubernetesObject) => o.metadata?.name ?? "";
const rvOf = (o: KubernetesObject) => o.metadata?.resourceVersion ?? "";

type Counts = { add: number; update: number; delete: number };

async function main(): Promise<boolean> {
  const args = parseArgs(process.argv.slice(2));
  const cluster = await openDemoCluster(args);
  say(`${cluster.description}, namespace ${cluster.namespace}`);
  try {
    return await run(cluster, args.objects);
  } finally {
    await cluster.close();
  }
}

async function run(cluster: DemoCluster, objects: number): Promise<boolean> {
  const names = Array.from({ length: objects }, (_, i) => `cm-${String(i).padStart(4, "0")}`);
  for (const name of names) await cluster.create(name, { v: "0" });
  say(`seeded ${objects} ConfigMaps`);

  // The client's default namespace is the demo's, so the informer needs no namespace of its own.
  const informer = new Informer(cluster.kube.resource("v1", "ConfigMap"), {
    labelSelector: { [DEMO_LABEL]: "yes" },
    pageSize: 50,
    backoff: { initialMs: 100, maxMs: 2000 },
  });
  // The handler's own picture of the namespace, built only from notifications.
  const view = new Map<string, string>();
  const got: Counts = { add: 0, update: 0, delete: 0 };
  const expected: Counts = { add: objects, update: 0, delete: 0 };
  let live = false;
  let changed = () => {};
  informer.addEventHandler({
    add: (o, { isInInitialList }) => {
      got.add++;
      view.set(nameOf(o), rvOf(o));
      if (live)
        say(`  add    ${nameOf(o)}${isInInitialList ? " (initial)" : ""}  cache=${informer.store.size}`);
      changed();
    },
    update: (a, b) => {
      got.update++;
      view.set(nameOf(b), rvOf(b));
      if (live) say(`  update ${nameOf(b)} rv ${rvOf(a)} → ${rvOf(b)}  cache=${informer.store.size}`);
      changed();
    },
    delete: (o) => {
      got.delete++;
      const tombstone = isDeletedFinalStateUnknown(o);
      const obj = tombstone ? o.obj : o;
      view.delete(nameOf(obj));
      if (live)
        say(
          `  delete ${nameOf(obj)}${tombstone ? " (missed during the outage: tombstone)" : ""}  cache=${informer.store.size}`,
        );
      changed();
    },
  });
  informer.on("listPage", (p) =>
    say(`list page ${p.page}: ${p.items} objects (${p.total} so far)${p.more ? ", more" : ""}`),
  );
  informer.on("watchStart", (w) =>
    say(`watch from resourceVersion ${w.resourceVersion} (timeout ${w.timeoutSeconds}s)`),
  );
  informer.on("watchEnd", (w) => say(`watch ended: ${w.reason} after ${w.events} events`));
  informer.on("relist", (r) =>
    say(`relist (${r.reason}) at resourceVersion ${r.resourceVersion ?? "latest"}`),
  );
  informer.on("backoff", (b) => say(`backing off ${Math.round(b.delayMs)} ms (${b.reason})`));
  informer.on("replace", (r) =>
    say(
      `store replaced: +${r.added} ~${r.updated} -${r.deleted} (=${r.unchanged} unchanged), cache=${r.storeSize}`,
    ),
  );
  informer.on("error", (e, ctx) =>
    say(`reported (${ctx.during}): ${(e as { code?: unknown }).code ?? e.name}: ${e.message}`),
  );

  /** Waits until the cache and the handler's picture equal the server (checked on every change). */
  const settle = async (phase: string) => {
    const server = await cluster.state();
    const same = (m: Map<string, string>) =>
      m.size === server.size && [...server].every(([k, v]) => m.get(k) === v);
    const cache = () => new Map(informer.store.list().map((o) => [nameOf(o), rvOf(o)]));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${phase}: the cache did not converge within 60 s`)),
        60_000,
      );
      const check = () => {
        if (!same(cache()) || !same(view)) return;
        clearTimeout(timer);
        changed = () => {};
        informer.off("event", check);
        informer.off("replace", check);
        resolve();
      };
      changed = check;
      informer.on("event", check);
      informer.on("replace", check);
      check();
    });
    say(`✓ ${phase}: cache (${informer.store.size}) and handler view equal the server`);
  };

  informer.start();
  await informer.waitForSync({ timeoutMs: 60_000 });
  say(`synced: ${informer.store.size} objects cached at resourceVersion ${informer.lastSyncResourceVersion}`);
  live = true;
  let n = 0;
  const create = async () => {
    await cluster.create(`new-${n++}`, { v: "0" });
    expected.add++;
  };
  const update = async (name: string, v: string) => {
    await cluster.update(name, { v });
    expected.update++;
  };
  const remove = async (name: string) => {
    await cluster.remove(name);
    expected.delete++;
  };

  say("phase 1: live writes");
  await create();
  await update("cm-0001", "1");
  await remove("cm-0002");
  await settle("live writes");

  const faults = cluster.faults;
  if (faults === undefined) say("real cluster: no fault controls, the fault phases are skipped");
  else {
    say("phase 2: the watch connection is reset, writes happen meanwhile");
    faults.dropWatches({ namespace: cluster.namespace }, "reset");
    await update("cm-0003", "2");
    await create();
    await settle("dropped stream");

    say("phase 3: a torn frame (the connection dies in the middle of an event)");
    faults.breakMidEvent({ namespace: cluster.namespace });
    await update("cm-0004", "3");
    await settle("torn frame");

    say("phase 4: a malformed line in the stream");
    faults.malformedEvent({ namespace: cluster.namespace });
    await update("cm-0005", "4");
    await settle("malformed line");

    say(
      "phase 5: delivery paused, writes, then a restart compacts history (the watch's resourceVersion expires)",
    );
    await update("cm-0009", "5");
    await settle("one more live write");
    faults.pauseDelivery();
    await update("cm-0006", "5");
    await update("cm-0007", "5");
    await remove("cm-0008");
    await create();
    faults.restart();
    faults.resumeDelivery();
    await settle("compaction");
  }

  await informer.stop();
  const server = await cluster.state();
  const cache = new Map(informer.store.list().map((o) => [nameOf(o), rvOf(o)]));
  const storeOk = JSON.stringify([...cache].sort()) === JSON.stringify([...server].sort());
  const viewOk = JSON.stringify([...view].sort()) === JSON.stringify([...server].sort());
  const countsOk =
    got.add === expected.add && got.update === expected.update && got.delete === expected.delete;
  const stats = informer.stats();
  console.log("");
  console.log("final check");
  console.log(`  store == server:        ${storeOk ? "yes" : "NO"} (${cache.size} objects)`);
  console.log(`  handler view == server: ${viewOk ? "yes" : "NO"}`);
  console.log(
    `  notifications by type:  add ${got.add}/${expected.add}, update ${got.update}/${expected.update}, delete ${got.delete}/${expected.delete} (got/expected) ${countsOk ? "" : "MISMATCH"}`,
  );
  console.log(
    `  lists ${stats.lists} (relists ${stats.relists}), watches ${stats.watches}, ends ${JSON.stringify(stats.watchEnds)}, backoffs ${stats.backoffs}`,
  );
  const ok = storeOk && viewOk && countsOk;
  console.log(ok ? "PASS" : "FAIL");
  return ok;
}

main().then(
  (ok) => {
    process.exitCode = ok ? 0 : 1;
  },
  (err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  },
);
