/**
 * The status rules of the apps workloads and ReplicationControllers (Validate<Kind>StatusUpdate):
 * which counters may not be negative, which may not exceed which, and whether the collision count
 * only grows. Upstream's messages differ per kind for the ready bound, so each table states it.
 */
import {
  atMostReplicas,
  type CounterBound,
  type StatusCounterTable,
} from "../../validation/status-counters.js";

/** Each of `fields` at most status.replicas, then available at most ready (in upstream's words). */
const replicaBounds = (fields: readonly string[], readyBound: string): CounterBound[] => [
  ...fields.map(atMostReplicas),
  ["availableReplicas", "readyReplicas", `cannot be greater than ${readyBound}`],
];

export const DEPLOYMENT_STATUS: StatusCounterTable = {
  counters: [
    "observedGeneration",
    "replicas",
    "updatedReplicas",
    "readyReplicas",
    "availableReplicas",
    "unavailableReplicas",
    "collisionCount",
    "terminatingReplicas",
  ],
  bounds: replicaBounds(["updatedReplicas", "readyReplicas", "availableReplicas"], "readyReplicas"),
  collisionCountGrows: true,
};

/** ReplicaSets and ReplicationControllers alike (the latter have no terminatingReplicas to set). */
export const REPLICA_SET_STATUS: StatusCounterTable = {
  counters: [
    "replicas",
    "fullyLabeledReplicas",
    "readyReplicas",
    "availableReplicas",
    "observedGeneration",
    "terminatingReplicas",
  ],
  bounds: replicaBounds(["fullyLabeledReplicas", "readyReplicas", "availableReplicas"], "readyReplicas"),
};

export const STATEFUL_SET_STATUS: StatusCounterTable = {
  counters: [
    "replicas",
    "readyReplicas",
    "currentReplicas",
    "updatedReplicas",
    "availableReplicas",
    "observedGeneration",
    "collisionCount",
  ],
  bounds: replicaBounds(
    ["readyReplicas", "currentReplicas", "updatedReplicas", "availableReplicas"],
    "status.readyReplicas",
  ),
  collisionCountGrows: true,
};

export const DAEMON_SET_STATUS: StatusCounterTable = {
  counters: [
    "currentNumberScheduled",
    "numberMisscheduled",
    "desiredNumberScheduled",
    "numberReady",
    "observedGeneration",
    "updatedNumberScheduled",
    "numberAvailable",
    "numberUnavailable",
    "collisionCount",
  ],
  collisionCountGrows: true,
};
