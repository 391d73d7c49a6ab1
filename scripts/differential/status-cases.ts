/**
 * Seeded status cases: for each kind with a status of its own, statuses whose counters, conditions,
 * times, IPs and quantities are drawn from small ranges around the bounds the validation checks
 * (negative, equal, greater), sent as a merge patch to the object's /status with dryRun=All after
 * the object was created for real (main.ts). Ids are `<group>/<resource>:status:<n>`; the same seed
 * gives the same statuses.
 */
import { seededRandom } from "../../packages/server/src/faults/prng.js";
import {
  DAEMON_SET_STATUS,
  DEPLOYMENT_STATUS,
  REPLICA_SET_STATUS,
  STATEFUL_SET_STATUS,
} from "../../packages/server/src/registry/apps/workload-status.js";
import type { DiffCase } from "./cases.js";
import { type KindUnderTest, kindId } from "./kinds.js";
import { pick, type Random } from "./specs/types.js";

type Body = Record<string, unknown>;

/** A counter: mostly small and non-negative, sometimes -1 or absent. */
const counter = (rnd: Random): number | undefined => pick(rnd, [undefined, -1, 0, 1, 2, 3]);

function counters(rnd: Random, names: readonly string[]): Body {
  const out: Body = {};
  for (const n of names) {
    const v = counter(rnd);
    if (v !== undefined) out[n] = v;
  }
  return out;
}

const TIMES = ["2024-01-01T00:00:00Z", "2024-02-01T00:00:00Z", undefined];
const JOB_CONDITIONS = ["SuccessCriteriaMet", "Complete", "FailureTarget", "Failed"];

function jobStatus(rnd: Random): Body {
  const conditions = JOB_CONDITIONS.filter(() => rnd() < 0.35).map((type) => ({ type, status: "True" }));
  const status: Body = {
    ...counters(rnd, ["active", "succeeded", "failed", "ready", "terminating"]),
    conditions,
  };
  const start = pick(rnd, TIMES);
  const completion = pick(rnd, TIMES);
  if (start) status.startTime = start;
  if (completion) status.completionTime = completion;
  if (rnd() < 0.3) status.completedIndexes = pick(rnd, ["0", "0-1", "1,0"]);
  if (rnd() < 0.2) status.uncountedTerminatedPods = { failed: pick(rnd, [["a"], ["", "a"], ["a", "a"]]) };
  return status;
}

function podStatus(rnd: Random): Body {
  const status: Body = {};
  if (rnd() < 0.5)
    status.conditions = [{ type: pick(rnd, ["Ready", "example.com/warm", "not ok", "x/"]), status: "True" }];
  if (rnd() < 0.4) status.nominatedNodeName = pick(rnd, ["node-1", "Node_1", ""]);
  if (rnd() < 0.3) status.qosClass = pick(rnd, ["BestEffort", "Burstable"]);
  if (rnd() < 0.5) {
    const ips = pick(rnd, [
      ["10.0.0.1"],
      ["10.0.0.1", "fd00::1"],
      ["10.0.0.1", "10.0.0.2"],
      ["x"],
      ["010.0.0.1"],
    ]);
    status.podIP = ips[0];
    status.podIPs = ips.map((ip) => ({ ip }));
  }
  return status;
}

function claimStatus(rnd: Random): Body {
  const quantity = () => pick(rnd, ["1Gi", "-1Gi", "0", "-1"]);
  const status: Body = {};
  if (rnd() < 0.6) status.capacity = { storage: quantity() };
  if (rnd() < 0.5) status.allocatedResources = { [pick(rnd, ["storage", "cpu"])]: quantity() };
  if (rnd() < 0.5)
    status.allocatedResourceStatuses = {
      [pick(rnd, ["storage", "cpu"])]: pick(rnd, ["NodeResizePending", "Shrinking"]),
    };
  return status;
}

/** Each status kind's seeded status. */
const STATUS_OF: Record<string, (rnd: Random) => Body> = {
  // The counters the server's tables name; the real server decides what is valid.
  "apps/deployments": (rnd) => counters(rnd, DEPLOYMENT_STATUS.counters),
  "apps/replicasets": (rnd) => counters(rnd, REPLICA_SET_STATUS.counters),
  // A ReplicationController's status has no terminatingReplicas.
  "core/replicationcontrollers": (rnd) =>
    counters(
      rnd,
      REPLICA_SET_STATUS.counters.filter((c) => c !== "terminatingReplicas"),
    ),
  "apps/statefulsets": (rnd) => counters(rnd, STATEFUL_SET_STATUS.counters),
  "apps/daemonsets": (rnd) => counters(rnd, DAEMON_SET_STATUS.counters),
  "autoscaling/horizontalpodautoscalers": (rnd) => counters(rnd, ["currentReplicas", "desiredReplicas"]),
  "policy/poddisruptionbudgets": (rnd) =>
    counters(rnd, ["disruptionsAllowed", "currentHealthy", "desiredHealthy", "expectedPods"]),
  "batch/jobs": jobStatus,
  "core/pods": podStatus,
  "core/persistentvolumeclaims": claimStatus,
  "core/namespaces": (rnd) => ({ phase: pick(rnd, ["Active", "Terminating", "Bogus"]) }),
};

/** `perKind` cases for every status kind the baseline kept, in a seeded order. */
export function generateStatusCases(
  kinds: readonly KindUnderTest[],
  seed: number,
  perKind: number,
): DiffCase[] {
  // A stream of its own, so that adding status cases leaves the other cases of a seed as they were.
  const rnd = seededRandom((seed ^ 0x2f6b3c1d) >>> 0);
  const cases: DiffCase[] = [];
  for (const kind of kinds) {
    const make = STATUS_OF[kindId(kind)];
    if (!make) continue;
    for (let i = 0; i < perKind; i++) {
      const name = kind.fixedName ?? `st-${kind.resource.slice(0, 20)}-${i}`;
      cases.push({ id: `${kindId(kind)}:status:${i}`, kind, metadata: { name }, status: make(rnd) });
    }
  }
  return cases;
}
