/** Spec cases of core/v1 cluster kinds: Namespaces, Nodes, volumes and claims, LimitRanges, ResourceQuotas. */
import { type Body, pick, type Random, type SpecKindCases, word } from "./types.js";

function namespaceVariants(rnd: Random): [string, Body][] {
  return [
    ["valid-finalizer", { spec: { finalizers: [`example.com/${word(rnd)}`] } }],
    ["finalizer-bare", { spec: { finalizers: [word(rnd)] } }],
    ["finalizer-invalid", { spec: { finalizers: ["a/b/c"] } }],
  ];
}

function nodeVariants(rnd: Random): [string, Body][] {
  const taint = (extra: Body = {}) => ({ key: `example.com/${word(rnd)}`, effect: "NoSchedule", ...extra });
  return [
    ["valid-unschedulable-false", { spec: { unschedulable: false } }],
    ["valid-unschedulable-true", { spec: { unschedulable: true } }],
    ["valid-taints", { spec: { taints: [taint(), taint({ effect: "NoExecute", value: "v" })] } }],
    ["taint-effect-missing", { spec: { taints: [taint({ effect: undefined })] } }],
    ["taint-effect-unknown", { spec: { taints: [taint({ effect: "NoAdmit" })] } }],
    ["taint-key-invalid", { spec: { taints: [taint({ key: "a/b/c" })] } }],
    ["taint-value-invalid", { spec: { taints: [taint({ value: "-x" })] } }],
    [
      "taint-duplicate",
      {
        spec: {
          taints: [
            { key: "k", effect: "NoSchedule" },
            { key: "k", effect: "NoSchedule", value: "v" },
          ],
        },
      },
    ],
  ];
}

function pvcVariants(rnd: Random): [string, Body][] {
  const pvc = (extra: Body = {}) => ({
    spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } }, ...extra },
  });
  return [
    ["valid-plain", pvc()],
    ["valid-class", pvc({ storageClassName: word(rnd), volumeMode: "Block" })],
    ["access-modes-missing", pvc({ accessModes: [] })],
    ["access-mode-unknown", pvc({ accessModes: ["ReadSometimes"] })],
    ["access-mode-once-pod-mixed", pvc({ accessModes: ["ReadWriteOncePod", "ReadOnlyMany"] })],
    ["storage-missing", pvc({ resources: {} })],
    ["storage-zero", pvc({ resources: { requests: { storage: "0" } } })],
    ["storage-negative", pvc({ resources: { requests: { storage: "-1Gi" } } })],
    ["class-invalid", pvc({ storageClassName: "Bad_Class" })],
    ["volume-mode-unknown", pvc({ volumeMode: "Raw" })],
    ["selector-invalid", pvc({ selector: { matchLabels: { "-a": "b" } } })],
  ];
}

function pvVariants(rnd: Random): [string, Body][] {
  const pv = (extra: Body = {}) => ({
    spec: {
      capacity: { storage: "1Gi" },
      accessModes: ["ReadWriteOnce"],
      hostPath: { path: "/tmp/pv" },
      ...extra,
    },
  });
  return [
    ["valid-plain", pv()],
    ["valid-nfs", pv({ hostPath: undefined, nfs: { server: "10.0.0.1", path: "/x" } })],
    ["valid-csi", pv({ hostPath: undefined, csi: { driver: "example.com", volumeHandle: word(rnd) } })],
    ["access-modes-missing", pv({ accessModes: [] })],
    ["capacity-missing", pv({ capacity: undefined })],
    ["capacity-extra", pv({ capacity: { storage: "1Gi", cpu: "1" } })],
    ["capacity-zero", pv({ capacity: { storage: "0" } })],
    ["source-missing", pv({ hostPath: undefined })],
    ["source-two", pv({ nfs: { server: "s", path: "/p" } })],
    ["hostpath-no-path", pv({ hostPath: {} })],
    ["reclaim-unknown", pv({ persistentVolumeReclaimPolicy: pick(rnd, ["Keep", "retain"]) })],
    ["class-invalid", pv({ storageClassName: "Bad_Class" })],
    ["volume-mode-unknown", pv({ volumeMode: "Raw" })],
  ];
}

function limitRangeVariants(rnd: Random): [string, Body][] {
  const lr = (limits: Body[]) => ({ spec: { limits } });
  return [
    [
      "valid-container",
      lr([{ type: "Container", max: { cpu: "2" }, min: { cpu: "100m" }, default: { cpu: "1" } }]),
    ],
    ["valid-pvc", lr([{ type: "PersistentVolumeClaim", max: { storage: "10Gi" } }])],
    ["type-unknown", lr([{ type: pick(rnd, ["Node", "container"]), max: { cpu: "1" } }])],
    [
      "type-duplicate",
      lr([
        { type: "Container", max: { cpu: "1" } },
        { type: "Container", max: { memory: "1Gi" } },
      ]),
    ],
    ["pod-default", lr([{ type: "Pod", default: { cpu: "1" } }])],
    ["pvc-no-storage", lr([{ type: "PersistentVolumeClaim", max: { cpu: "1" } }])],
    ["min-over-max", lr([{ type: "Container", min: { cpu: "2" }, max: { cpu: "1" } }])],
    ["default-over-max", lr([{ type: "Container", max: { memory: "1Gi" }, default: { memory: "2Gi" } }])],
    [
      "request-over-default",
      lr([{ type: "Container", default: { cpu: "1" }, defaultRequest: { cpu: "2" } }]),
    ],
    ["ratio-below-one", lr([{ type: "Container", maxLimitRequestRatio: { cpu: "500m" } }])],
    [
      "ratio-over-max-min",
      lr([{ type: "Container", min: { cpu: "1" }, max: { cpu: "2" }, maxLimitRequestRatio: { cpu: "3" } }]),
    ],
    ["resource-name-invalid", lr([{ type: "Container", max: { [word(rnd)]: "1" } }])],
  ];
}

function resourceQuotaVariants(rnd: Random): [string, Body][] {
  const rq = (spec: Body) => ({ spec });
  return [
    ["valid-plain", rq({ hard: { pods: String(1 + Math.floor(rnd() * 20)), "requests.cpu": "2" } })],
    ["valid-scopes", rq({ hard: { pods: "5" }, scopes: ["BestEffort"] })],
    [
      "valid-scope-selector",
      rq({
        hard: { pods: "5" },
        scopeSelector: {
          matchExpressions: [{ scopeName: "PriorityClass", operator: "In", values: ["high"] }],
        },
      }),
    ],
    ["resource-unknown", rq({ hard: { [word(rnd)]: "1" } })],
    ["resource-storage", rq({ hard: { storage: "1Gi" } })],
    ["pods-fraction", rq({ hard: { pods: "1500m" } })],
    ["negative", rq({ hard: { "requests.memory": "-1Gi" } })],
    ["scope-unknown", rq({ hard: { pods: "1" }, scopes: ["Sometimes"] })],
    ["scope-not-applicable", rq({ hard: { cpu: "1" }, scopes: ["BestEffort"] })],
    ["scopes-conflicting", rq({ hard: { pods: "1" }, scopes: ["Terminating", "NotTerminating"] })],
    [
      "selector-operator",
      rq({
        hard: { pods: "1" },
        scopeSelector: { matchExpressions: [{ scopeName: "BestEffort", operator: "In", values: ["x"] }] },
      }),
    ],
    [
      "selector-values-missing",
      rq({
        hard: { pods: "1" },
        scopeSelector: { matchExpressions: [{ scopeName: "PriorityClass", operator: "NotIn" }] },
      }),
    ],
  ];
}

export const coreClusterVariants: readonly SpecKindCases[] = [
  { id: "core/namespaces", variants: namespaceVariants },
  { id: "core/nodes", variants: nodeVariants },
  { id: "core/persistentvolumeclaims", variants: pvcVariants },
  { id: "core/persistentvolumes", variants: pvVariants },
  { id: "core/limitranges", variants: limitRangeVariants },
  { id: "core/resourcequotas", variants: resourceQuotaVariants },
];
