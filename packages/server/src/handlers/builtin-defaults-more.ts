/**
 * Defaults of storage, autoscaling, flow-control and resource-limit kinds that kube-apiserver sets when
 * it decodes a request, where they show in what clients read back (kubectl's columns among them).
 */
import { child, isObj, type Obj, set } from "./default-fields.js";

/** A v2 HPA without metrics scales on 80% average CPU use. */
function defaultHpa(obj: Obj): void {
  const spec = child(obj, "spec");
  set(spec, "minReplicas", 1);
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0)
    spec.metrics = [
      {
        type: "Resource",
        resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 80 } },
      },
    ];
}

/** Limited levels get 30 shares; queuing gets 64 queues, hands of 8 and 50 requests a queue. */
function defaultPriorityLevel(obj: Obj): void {
  const limited = (obj.spec as Obj | undefined)?.limited;
  if (!isObj(limited)) return;
  set(limited, "nominalConcurrencyShares", 30);
  set(limited, "lendablePercent", 0);
  const queuing = isObj(limited.limitResponse) ? limited.limitResponse.queuing : undefined;
  if (!isObj(queuing)) return;
  set(queuing, "queues", 64);
  set(queuing, "handSize", 8);
  set(queuing, "queueLengthLimit", 50);
}

/** Copies into `to` (created when needed, left out when empty) each amount of `from` it lacks. */
function fillAmounts(item: Obj, to: string, from: string): void {
  const source = item[from];
  if (!isObj(source)) return;
  const target = isObj(item[to]) ? (item[to] as Obj) : {};
  for (const [k, v] of Object.entries(source)) set(target, k, v);
  if (Object.keys(target).length > 0) item[to] = target;
}

/**
 * A Container limit's default limit comes from its max, and its default request from the default
 * limit, then from its min.
 */
function defaultLimitRange(obj: Obj): void {
  const limits = (obj.spec as Obj | undefined)?.limits;
  if (!Array.isArray(limits)) return;
  for (const item of limits) {
    if (!isObj(item) || item.type !== "Container") continue;
    fillAmounts(item, "default", "max");
    fillAmounts(item, "defaultRequest", "default");
    fillAmounts(item, "defaultRequest", "min");
  }
}

export const MORE_DEFAULTERS: Readonly<Record<string, (obj: Obj) => void>> = {
  "/persistentvolumes"(obj) {
    const spec = child(obj, "spec");
    set(spec, "persistentVolumeReclaimPolicy", "Retain");
    set(spec, "volumeMode", "Filesystem");
  },
  "/persistentvolumeclaims"(obj) {
    set(child(obj, "spec"), "volumeMode", "Filesystem");
  },
  "storage.k8s.io/storageclasses"(obj) {
    set(obj, "reclaimPolicy", "Delete");
    set(obj, "volumeBindingMode", "Immediate");
  },
  "storage.k8s.io/csidrivers"(obj) {
    const spec = child(obj, "spec");
    set(spec, "attachRequired", true);
    set(spec, "podInfoOnMount", false);
    set(spec, "volumeLifecycleModes", ["Persistent"]);
    set(spec, "storageCapacity", false);
    set(spec, "fsGroupPolicy", "ReadWriteOnceWithFSType");
    set(spec, "requiresRepublish", false);
    set(spec, "seLinuxMount", false);
  },
  "autoscaling/horizontalpodautoscalers": defaultHpa,
  "/limitranges": defaultLimitRange,
  "/nodes"(obj) {
    // A node that reports capacity but no allocatable has all of its capacity allocatable.
    const status = obj.status;
    if (isObj(status) && isObj(status.capacity) && status.allocatable === undefined)
      status.allocatable = { ...status.capacity };
  },
  "flowcontrol.apiserver.k8s.io/flowschemas"(obj) {
    const spec = child(obj, "spec");
    if (!spec.matchingPrecedence) spec.matchingPrecedence = 1000;
  },
  "flowcontrol.apiserver.k8s.io/prioritylevelconfigurations": defaultPriorityLevel,
};
