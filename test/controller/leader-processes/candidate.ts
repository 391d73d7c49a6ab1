/**
 * A leader-election candidate in its own OS process, for the cross-process leader suite: a Manager
 * with leader election and one 4-worker ConfigMap controller whose reconcile GETs the ConfigMap and
 * requeues it after `--requeue-ms`, so while leading keys are always waiting on requeue timers.
 *
 * Every reconcile that passed its fence is appended to the shared log as
 * "<identity> <start> <checked> <end>" (process.hrtime.bigint(): CLOCK_MONOTONIC nanoseconds,
 * comparable across processes), `checked` read right before `request.check()` and `end` right after
 * it succeeded, in the same task. A
 * reconcile whose fence lapsed logs "<identity> fenced <start> <end>" instead. Lifecycle lines:
 * "<identity> ready|leading|stopped|exited <t>". The elector's protocol trace (Logger.debug, called at
 * the moment it describes): "<identity> round <t>" when an acquire/renew round starts,
 * "<identity> observed <t> <holder|-> <leaseDurationSeconds>" when it sees the Lease record change,
 * "<identity> write <t>" when it sends a write of the Lease, "<identity> renewed <t>" when the round
 * last started succeeded (leadership fresh for the renew deadline from that round's start). SIGTERM: graceful stop (releases the Lease).
 *
 *   node --conditions=source --import tsx candidate.ts --kubeconfig K --namespace N --lease L \
 *     --identity I --log F [--lease-ms 3000 --renew-ms 2000 --retry-ms 500 --requeue-ms 20]
 */
import { appendFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { Kube } from "@kubesdk/client";
import { Action, type Logger, Manager } from "@kubesdk/controller";

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

/** The elector's debug calls as trace lines, stamped when they are made. */
const trace: Logger = {
  info: () => {},
  error: () => {},
  debug: (message, fields) => {
    const at = now();
    if (message === "lease round") line(`round ${at}`);
    else if (message === "lease write") line(`write ${at}`);
    else if (message === "lease renewed") line(`renewed ${at}`);
    else if (message === "lease observed")
      line(
        `observed ${at} ${String(fields?.holder ?? "") || "-"} ${String(fields?.leaseDurationSeconds ?? 0)}`,
      );
  },
};

const kube = await Kube.fromKubeconfig({ kubeconfig: { path: need("kubeconfig") } });
const configMaps = kube.resource("v1", "ConfigMap");
const manager = new Manager({
  kube,
  logger: trace,
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
    // Read before the fence so the fence check is not later than `checked` (the suite compares it
    // with the last renewal), and `end` after it so the interval covers everything before the fence.
    const checked = now();
    try {
      request.check();
    } catch (err) {
      line(`fenced ${start} ${now()}`);
      throw err;
    }
    line(`${start} ${checked} ${now()}`);
    return Action.requeueAfter(Number(values["requeue-ms"]));
  },
});
manager.handleSignals(() => {
  line(`exited ${now()}`);
  void kube.close().finally(() => process.exit(0));
});
await manager.start();
line(`ready ${now()}`);
