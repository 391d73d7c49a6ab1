/**
 * A leader-election candidate in its own OS process, for the cross-process leader suite: a Manager
 * with leader election and one 4-worker ConfigMap controller whose reconcile GETs the ConfigMap and
 * requeues it after `--requeue-ms`, so while leading keys are always waiting on requeue timers.
 *
 * Every reconcile that passed its fence is appended to the shared log as
 * "<identity> <start> <end>" (process.hrtime.bigint(): CLOCK_MONOTONIC nanoseconds, comparable
 * across processes), the end taken right after `request.check()` succeeded, in the same task. A
 * reconcile whose fence lapsed logs "<identity> fenced <start> <end>" instead. Lifecycle lines:
 * "<identity> ready|leading|stopped|exited <t>". SIGTERM: graceful stop (releases the Lease).
 *
 *   node --conditions=source --import tsx candidate.ts --kubeconfig K --namespace N --lease L \
 *     --identity I --log F [--lease-ms 3000 --renew-ms 2000 --retry-ms 500 --requeue-ms 20]
 */
import { appendFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { KubeClient } from "@kubesdk/client";
import { Action, Manager, silentLogger } from "@kubesdk/controller";

const { values } = parseArgs({
  options: {
    kubeconfig: { type: "string" },
    namespace: { type: "string" },
    lease: { type: "string" },
    identity: { type: "string" },
    log: { type: "string" },
    "lease-ms": { type: "string", default: "3000" },
    "renew-ms": { type: "string", default: "2000" },
    "retry-ms": { type: "string", default: "500" },
    "requeue-ms": { type: "string", default: "20" },
  },
});
const need = (name: keyof typeof values): string => {
  const v = values[name];
  if (typeof v !== "string") throw new Error(`--${name} is required`);
  return v;
};
const identity = need("identity");
const namespace = need("namespace");
const logPath = need("log");
const now = () => process.hrtime.bigint();
// One write(2) per line on an O_APPEND file: lines of several processes never interleave.
const line = (text: string) => appendFileSync(logPath, `${identity} ${text}\n`);

const kube = await KubeClient.fromKubeconfig({ kubeconfig: { path: need("kubeconfig") } });
const configMaps = kube.resource("v1", "ConfigMap");
const manager = new Manager({
  kube,
  logger: silentLogger,
  leaderElection: {
    name: need("lease"),
    namespace,
    identity,
    leaseDurationMs: Number(values["lease-ms"]),
    renewDeadlineMs: Number(values["renew-ms"]),
    retryPeriodMs: Number(values["retry-ms"]),
  },
  onLeaderChange: (leading) => line(`${leading ? "leading" : "stopped"} ${now()}`),
});
manager.controller({
  name: "cm",
  resource: configMaps,
  namespace,
  concurrency: 4,
  reconcile: async (request) => {
    const start = now();
    await configMaps.get(request.name, { namespace, signal: request.signal }).catch(() => undefined);
    try {
      request.check();
    } catch (err) {
      line(`fenced ${start} ${now()}`);
      throw err;
    }
    line(`${start} ${now()}`);
    return Action.requeueAfter(Number(values["requeue-ms"]));
  },
});
manager.handleSignals(() => {
  line(`exited ${now()}`);
  void kube.close().finally(() => process.exit(0));
});
await manager.start();
line(`ready ${now()}`);
