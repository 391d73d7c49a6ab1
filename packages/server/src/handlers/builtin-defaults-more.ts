/**
 * Defaults of storage, autoscaling and flow-control kinds that kube-apiserver sets when it decodes a
 * request, where they show in what clients read back (kubectl's columns among them).
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
  "flowcontrol.apiserver.k8s.io/flowschemas"(obj) {
    const spec = child(obj, "spec");
    if (!spec.matchingPrecedence) spec.matchingPrecedence = 1000;
  },
  "flowcontrol.apiserver.k8s.io/prioritylevelconfigurations": defaultPriorityLevel,
};
