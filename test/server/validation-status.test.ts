/**
 * /status writes of workloads are validated as kube-apiserver validates them (apps
 * Validate<Kind>StatusUpdate, ReplicationController, HorizontalPodAutoscaler, Namespace): counters
 * are non-negative, some are bounded by others, a collision count never goes down.
 */
import { describeStatusRows, NEGATIVE, type StatusRow } from "./status-validation-cases.js";

const OVER = (field: string, n: number, bound = "status.replicas") =>
  `status.${field} | FieldValueInvalid | Invalid value: ${n}: cannot be greater than ${bound}`;
const neg = (field: string) => `status.${field} | FieldValueInvalid | ${NEGATIVE}`;
const DECREMENTED = (n: number) =>
  `status.collisionCount | FieldValueInvalid | Invalid value: ${n}: cannot be decremented`;

/** ReplicaSets and ReplicationControllers share their status rules. */
const replicaSetRows = (title: string, kind: "replicaset" | "replicationcontroller"): StatusRow[] => [
  {
    name: `${title}: negative counters`,
    kind,
    status: {
      replicas: -1,
      fullyLabeledReplicas: -1,
      readyReplicas: -1,
      availableReplicas: -1,
      observedGeneration: -1,
    },
    causes: [
      neg("replicas"),
      neg("fullyLabeledReplicas"),
      neg("readyReplicas"),
      neg("availableReplicas"),
      neg("observedGeneration"),
    ],
  },
  {
    name: `${title}: counters above replicas, available above ready`,
    kind,
    status: { replicas: 1, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 3 },
    causes: [
      OVER("fullyLabeledReplicas", 2),
      OVER("readyReplicas", 2),
      OVER("availableReplicas", 3),
      OVER("availableReplicas", 3, "readyReplicas"),
    ],
  },
];

const ROWS: StatusRow[] = [
  {
    name: "Deployment: consistent counters",
    kind: "deployment",
    status: { replicas: 3, updatedReplicas: 3, readyReplicas: 2, availableReplicas: 2, collisionCount: 1 },
    causes: [],
  },
  {
    name: "Deployment: negative counters",
    kind: "deployment",
    status: {
      observedGeneration: -1,
      replicas: -1,
      updatedReplicas: -1,
      readyReplicas: -1,
      availableReplicas: -1,
      unavailableReplicas: -1,
      collisionCount: -1,
    },
    causes: [
      neg("observedGeneration"),
      neg("replicas"),
      neg("updatedReplicas"),
      neg("readyReplicas"),
      neg("availableReplicas"),
      neg("unavailableReplicas"),
      neg("collisionCount"),
    ],
  },
  {
    name: "Deployment: counters above replicas, available above ready",
    kind: "deployment",
    status: { replicas: 1, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 3 },
    causes: [
      OVER("updatedReplicas", 2),
      OVER("readyReplicas", 2),
      OVER("availableReplicas", 3),
      OVER("availableReplicas", 3, "readyReplicas"),
    ],
  },
  {
    name: "Deployment: negative terminating replicas",
    kind: "deployment",
    status: { terminatingReplicas: -1 },
    causes: [neg("terminatingReplicas")],
  },
  {
    name: "ReplicaSet: negative terminating replicas",
    kind: "replicaset",
    status: { terminatingReplicas: -1 },
    causes: [neg("terminatingReplicas")],
  },
  {
    name: "Deployment: a collision count that goes down",
    kind: "deployment",
    before: { collisionCount: 2 },
    status: { collisionCount: 1 },
    causes: [DECREMENTED(1)],
  },
  {
    name: "Deployment: a collision count that goes away",
    kind: "deployment",
    before: { collisionCount: 2 },
    status: { collisionCount: null },
    causes: [DECREMENTED(0)],
  },
  ...replicaSetRows("ReplicaSet", "replicaset"),
  {
    name: "StatefulSet: negative counters",
    kind: "statefulset",
    status: {
      replicas: -1,
      readyReplicas: -1,
      currentReplicas: -1,
      updatedReplicas: -1,
      availableReplicas: -1,
      observedGeneration: -1,
      collisionCount: -1,
    },
    causes: [
      neg("replicas"),
      neg("readyReplicas"),
      neg("currentReplicas"),
      neg("updatedReplicas"),
      neg("availableReplicas"),
      neg("observedGeneration"),
      neg("collisionCount"),
    ],
  },
  {
    name: "StatefulSet: counters above replicas, available above ready",
    kind: "statefulset",
    status: { replicas: 1, readyReplicas: 2, currentReplicas: 2, updatedReplicas: 2, availableReplicas: 3 },
    causes: [
      OVER("readyReplicas", 2),
      OVER("currentReplicas", 2),
      OVER("updatedReplicas", 2),
      OVER("availableReplicas", 3),
      OVER("availableReplicas", 3, "status.readyReplicas"),
    ],
  },
  {
    name: "StatefulSet: a collision count that goes down",
    kind: "statefulset",
    before: { replicas: 0, collisionCount: 3 },
    status: { collisionCount: 1 },
    causes: [DECREMENTED(1)],
  },
  {
    name: "DaemonSet: negative counters",
    kind: "daemonset",
    status: {
      currentNumberScheduled: -1,
      numberMisscheduled: -1,
      desiredNumberScheduled: -1,
      numberReady: -1,
      observedGeneration: -1,
      updatedNumberScheduled: -1,
      numberAvailable: -1,
      numberUnavailable: -1,
      collisionCount: -1,
    },
    causes: [
      neg("currentNumberScheduled"),
      neg("numberMisscheduled"),
      neg("desiredNumberScheduled"),
      neg("numberReady"),
      neg("observedGeneration"),
      neg("updatedNumberScheduled"),
      neg("numberAvailable"),
      neg("numberUnavailable"),
      neg("collisionCount"),
    ],
  },
  {
    name: "DaemonSet: a collision count that goes down; counters need no order",
    kind: "daemonset",
    before: {
      currentNumberScheduled: 0,
      numberMisscheduled: 0,
      desiredNumberScheduled: 0,
      numberReady: 0,
      collisionCount: 2,
    },
    status: { numberReady: 5, desiredNumberScheduled: 1, collisionCount: 1 },
    causes: [DECREMENTED(1)],
  },
  ...replicaSetRows("ReplicationController", "replicationcontroller"),
  {
    name: "HorizontalPodAutoscaler: negative replica counts",
    kind: "hpa",
    status: { currentReplicas: -1, desiredReplicas: -1 },
    causes: [neg("currentReplicas"), neg("desiredReplicas")],
  },
  {
    name: "HorizontalPodAutoscaler: replica counts",
    kind: "hpa",
    status: { currentReplicas: 2, desiredReplicas: 0 },
    causes: [],
  },
  {
    name: "Namespace: Terminating without a deletion timestamp",
    kind: "namespace",
    status: { phase: "Terminating" },
    causes: [
      "status.Phase | FieldValueInvalid | Invalid value: \"Terminating\": may only be 'Active' if `deletionTimestamp` is empty",
    ],
  },
  {
    name: "Namespace: Active",
    kind: "namespace",
    status: { phase: "Active" },
    causes: [],
  },
];

describeStatusRows("status validation of workloads (dryRun=All /status writes)", ROWS);
