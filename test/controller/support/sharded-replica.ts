/**
 * One replica of a sharded controller, run as its own OS process by sharding-processes.test.ts:
 * 4 workers reconcile the ConfigMaps of a namespace, sharing them with the other replicas through
 * the group's member Leases. Every reconcile appends `identity key start end` to the shared log
 * (process.hrtime.bigint(): CLOCK_MONOTONIC, comparable across processes on one machine), with end
 * "-" when the reconcile was not allowed to commit: its signal was aborted or the gate no longer
 * admits the key, checked synchronously right after `end` was read — the fencing check a reconciler
 * makes before an effect (docs/guides/controllers.md). Each reconcile requeues itself after 50–150
 * ms, so a paused replica always has keys waiting on requeue timers.
 *
 * stdout: `ready` once loaded, `view <json>` when its Lease stored a new view, then `log …` per reconcile. stdin: a line
 * "start" starts the controller. SIGTERM: graceful leave (stop, which deletes the Lease), exit 0.
 *
 * Usage: node --conditions=source --import tsx sharded-replica.ts <kubeconfig> <namespace> <group>
 *   <identity> <log> <leaseMs> <deadlineMs> <retryMs>
 */
import { openSync, writeSync } from "node:fs";
import { createInterface } from "node:readline";
import { Kube } from "@kubesdk/client";
import { Action, Controller, silentLogger } from "@kubesdk/controller";
import { InformerFactory } from "@kubesdk/informer";
import type { coreV1 } from "@kubesdk/models";

const [kubeconfig, namespace, group, identity, logPath, lease, deadline, retry] = process.argv.slice(2);
if (retry === undefined)
  throw new Error("usage: sharded-replica.ts <kubeconfig> <ns> <group> <id> <log> <ms…>");
const log = openSync(logPath as string, "a");
const kube = await Kube.fromKubeconfig({ kubeconfig: { path: kubeconfig as string } });
const configMaps = kube.resource("v1", "ConfigMap");

const controller: Controller<coreV1.ConfigMap> = new Controller<coreV1.ConfigMap>({
  name: "sharded",
  kube,
  informers: new InformerFactory(kube),
  resource: configMaps,
  namespace: namespace as string,
  concurrency: 4,
  logger: silentLogger,
  sharding: {
    name: group as string,
    namespace: namespace as string,
    identity: identity as string,
    leaseDurationMs: Number(lease),
    renewDeadlineMs: Number(deadline),
    retryPeriodMs: Number(retry),
    onViewPublished: (view) => process.stdout.write(`view ${JSON.stringify(view)}\n`),
  },
  reconcile: async ({ key, name, signal }) => {
    const start = process.hrtime.bigint();
    await configMaps.get(name, { namespace: namespace as string }).catch(() => undefined);
    const end = process.hrtime.bigint();
    const committed = !signal.aborted && controller.sharding?.admits(key) === true;
    const line = `${identity} ${key} ${start} ${committed ? end : "-"}\n`;
    writeSync(log, line);
    process.stdout.write(`log ${line}`);
    return Action.requeueAfter(50 + Math.floor(Math.random() * 100));
  },
});

process.once("SIGTERM", () => {
  void controller.stop().then(async () => {
    await kube.close();
    process.exit(0);
  });
});

process.stdout.write("ready\n");
for await (const line of createInterface({ input: process.stdin })) {
  if (line === "start") {
    await controller.start();
    process.stdout.write("started\n");
  }
}
