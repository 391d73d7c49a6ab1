/** Spec cases of apps/v1: Deployments, ReplicaSets, StatefulSets, DaemonSets, ControllerRevisions. */
import { podSpecVariants } from "./pod-bodies.js";
import { type Body, pick, type Random, type SpecGroup, word } from "./types.js";

const template = (spec: Body = { containers: [{ name: "c", image: "busybox" }] }): Body => ({
  metadata: { labels: { app: "x" } },
  spec,
});
const workload = (extra: Body = {}): Body => ({
  spec: { selector: { matchLabels: { app: "x" } }, template: template(), ...extra },
});

/** `count` of the pod spec variants (all when undefined), under the workload's template. */
function templated(rnd: Random, base: (extra: Body) => Body, count?: number): [string, Body][] {
  const all = podSpecVariants(rnd);
  const chosen = count === undefined ? all : all.filter(() => rnd() < count / all.length);
  return chosen.map(([v, spec]) => [`template-${v}`, base({ template: template(spec) })]);
}

/** Selector and template rules every apps workload shares. */
function selectorVariants(rnd: Random, base: (extra: Body) => Body): [string, Body][] {
  const key = word(rnd);
  return [
    ["selector-missing", base({ selector: undefined })],
    ["selector-empty", base({ selector: {} })],
    ["selector-mismatch", base({ selector: { matchLabels: { app: "y" } } })],
    [
      "selector-expression-in",
      base({ selector: { matchExpressions: [{ key: "app", operator: "In", values: ["x", "z"] }] } }),
    ],
    [
      "selector-expression-notin-mismatch",
      base({ selector: { matchExpressions: [{ key: "app", operator: "NotIn", values: ["x"] }] } }),
    ],
    ["selector-expression-no-values", base({ selector: { matchExpressions: [{ key, operator: "In" }] } })],
    [
      "selector-expression-exists-values",
      base({ selector: { matchExpressions: [{ key: "app", operator: "Exists", values: ["x"] }] } }),
    ],
    [
      "selector-expression-operator",
      base({ selector: { matchExpressions: [{ key: "app", operator: "Equals", values: ["x"] }] } }),
    ],
    ["selector-label-invalid", base({ selector: { matchLabels: { "a/b/c": "x", app: "x" } } })],
    ["selector-value-invalid", base({ selector: { matchLabels: { app: "-x" } } })],
    ["template-missing", base({ template: undefined })],
    [
      "template-labels-invalid",
      base({ template: { metadata: { labels: { app: "x", "Bad Key": "v" } }, spec: template().spec } }),
    ],
    [
      "template-annotations-invalid",
      base({
        template: {
          metadata: { labels: { app: "x" }, annotations: { "a/b/c": "v" } },
          spec: template().spec,
        },
      }),
    ],
    [
      "template-restart-never",
      base({ template: template({ restartPolicy: "Never", containers: [{ name: "c", image: "i" }] }) }),
    ],
    [
      "template-deadline",
      base({ template: template({ activeDeadlineSeconds: 10, containers: [{ name: "c", image: "i" }] }) }),
    ],
    [
      "template-ephemeral",
      base({
        template: template({
          containers: [{ name: "c", image: "i" }],
          ephemeralContainers: [{ name: "e", image: "i" }],
        }),
      }),
    ],
  ];
}

const within = (extra: Body): Body => workload(extra);

function deploymentVariants(rnd: Random): [string, Body][] {
  const n = Math.floor(rnd() * 100);
  return [
    ["valid-plain", workload()],
    ["valid-recreate", workload({ strategy: { type: "Recreate" } })],
    ["valid-percent", workload({ strategy: { rollingUpdate: { maxSurge: `${n}%`, maxUnavailable: 0 } } })],
    ["replicas-negative", workload({ replicas: -1 - n })],
    ["min-ready-negative", workload({ minReadySeconds: -1 })],
    ["revision-history-negative", workload({ revisionHistoryLimit: -1 })],
    [
      "progress-deadline-not-above-min-ready",
      workload({ minReadySeconds: 10 + n, progressDeadlineSeconds: 10 + n }),
    ],
    ["progress-deadline-negative", workload({ progressDeadlineSeconds: -5 })],
    ["strategy-type-unknown", workload({ strategy: { type: pick(rnd, ["Blue", "recreate"]) } })],
    [
      "strategy-type-unknown-with-rolling",
      workload({ strategy: { type: "Canary", rollingUpdate: { maxSurge: 1 } } }),
    ],
    ["strategy-recreate-with-rolling", workload({ strategy: { type: "Recreate", rollingUpdate: {} } })],
    ["strategy-both-zero", workload({ strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } } })],
    ["strategy-percent-over", workload({ strategy: { rollingUpdate: { maxUnavailable: `${101 + n}%` } } })],
    [
      "strategy-percent-garbage",
      workload({ strategy: { rollingUpdate: { maxSurge: "x", maxUnavailable: "10" } } }),
    ],
    ["strategy-negative", workload({ strategy: { rollingUpdate: { maxSurge: -1 } } })],
    ...selectorVariants(rnd, within),
    ...templated(rnd, within),
  ];
}

function replicaSetVariants(rnd: Random): [string, Body][] {
  return [
    ["valid-plain", workload()],
    ["replicas-negative", workload({ replicas: -3 })],
    ["min-ready-negative", workload({ minReadySeconds: -1 })],
    ...selectorVariants(rnd, within),
    ...templated(rnd, within, 12),
  ];
}

function statefulSetVariants(rnd: Random): [string, Body][] {
  const sts = (extra: Body) => workload({ serviceName: "s", ...extra });
  return [
    ["valid-plain", sts({})],
    [
      "valid-parallel-ondelete",
      sts({ podManagementPolicy: "Parallel", updateStrategy: { type: "OnDelete" } }),
    ],
    [
      "valid-claim-template-mount",
      sts({
        volumeClaimTemplates: [
          {
            metadata: { name: "data" },
            spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
          },
        ],
        template: template({
          containers: [{ name: "c", image: "i", volumeMounts: [{ name: "data", mountPath: "/d" }] }],
        }),
      }),
    ],
    ["replicas-negative", sts({ replicas: -1 })],
    ["pod-management-unknown", sts({ podManagementPolicy: "Random" })],
    ["update-strategy-unknown", sts({ updateStrategy: { type: "Blue" } })],
    [
      "update-strategy-ondelete-rolling",
      sts({ updateStrategy: { type: "OnDelete", rollingUpdate: { partition: 1 } } }),
    ],
    ["partition-negative", sts({ updateStrategy: { rollingUpdate: { partition: -1 } } })],
    ["max-unavailable-zero", sts({ updateStrategy: { rollingUpdate: { maxUnavailable: 0 } } })],
    ["max-unavailable-percent-over", sts({ updateStrategy: { rollingUpdate: { maxUnavailable: "150%" } } })],
    ["service-name-invalid", sts({ serviceName: "Bad.Name" })],
    ["retention-unknown", sts({ persistentVolumeClaimRetentionPolicy: { whenDeleted: "Keep" } })],
    ["ordinals-negative", sts({ ordinals: { start: -1 } })],
    ["min-ready-negative", sts({ minReadySeconds: -2 })],
    ...selectorVariants(rnd, sts),
    ...templated(rnd, sts, 12),
  ];
}

function daemonSetVariants(rnd: Random): [string, Body][] {
  return [
    ["valid-plain", workload()],
    ["valid-ondelete", workload({ updateStrategy: { type: "OnDelete" } })],
    ["valid-surge", workload({ updateStrategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } })],
    ["update-strategy-unknown", workload({ updateStrategy: { type: "Blue" } })],
    ["rolling-both-set", workload({ updateStrategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } } })],
    [
      "rolling-both-zero",
      workload({ updateStrategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } } }),
    ],
    ["rolling-percent-over", workload({ updateStrategy: { rollingUpdate: { maxUnavailable: "200%" } } })],
    ["min-ready-negative", workload({ minReadySeconds: -1 })],
    ["revision-history-negative", workload({ revisionHistoryLimit: -1 })],
    ...selectorVariants(rnd, within),
    ...templated(rnd, within, 12),
  ];
}

function controllerRevisionVariants(rnd: Random): [string, Body][] {
  return [
    ["valid-plain", { revision: 1 + Math.floor(rnd() * 9), data: { spec: {} } }],
    ["valid-empty-data", { revision: 0, data: {} }],
    ["data-missing", { revision: 1 }],
    ["data-null", { revision: 1, data: null }],
    ["data-string", { revision: 1, data: "x" }],
    ["data-list", { revision: 1, data: [1] }],
    ["data-number", { revision: 1, data: 5 }],
    ["revision-negative", { revision: -1, data: {} }],
  ];
}

export const apps: SpecGroup = {
  name: "apps",
  kinds: [
    { id: "apps/deployments", variants: deploymentVariants },
    { id: "apps/replicasets", variants: replicaSetVariants },
    { id: "apps/statefulsets", variants: statefulSetVariants },
    { id: "apps/daemonsets", variants: daemonSetVariants },
    { id: "apps/controllerrevisions", variants: controllerRevisionVariants },
  ],
};
