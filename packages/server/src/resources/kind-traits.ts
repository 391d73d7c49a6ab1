/**
 * Per-kind facts of upstream's registry strategies that no schema carries:
 * which kinds track metadata.generation, which field labels they support, and
 * which answer DELETE with the object. Keyed by `group/resource`.
 */
const GENERATION = new Set([
  "apps/deployments",
  "apps/replicasets",
  "apps/statefulsets",
  "apps/daemonsets",
  "batch/jobs",
  "batch/cronjobs",
  "/pods",
  "/replicationcontrollers",
  "autoscaling/horizontalpodautoscalers",
  "policy/poddisruptionbudgets",
  "networking.k8s.io/ingresses",
  "networking.k8s.io/networkpolicies",
  "apiextensions.k8s.io/customresourcedefinitions",
  "apiregistration.k8s.io/apiservices",
  "flowcontrol.apiserver.k8s.io/flowschemas",
  "flowcontrol.apiserver.k8s.io/prioritylevelconfigurations",
  "admissionregistration.k8s.io/validatingadmissionpolicies",
  "admissionregistration.k8s.io/mutatingadmissionpolicies",
  "resource.k8s.io/resourceclaims",
  "resource.k8s.io/deviceclasses",
  "resource.k8s.io/resourceslices",
]);

const FIELD_LABELS: Record<string, readonly string[]> = {
  "/pods": [
    "spec.nodeName",
    "spec.restartPolicy",
    "spec.schedulerName",
    "spec.serviceAccountName",
    "spec.hostNetwork",
    "status.phase",
    "status.podIP",
    "status.nominatedNodeName",
  ],
  "/events": [
    "involvedObject.kind",
    "involvedObject.namespace",
    "involvedObject.name",
    "involvedObject.uid",
    "involvedObject.apiVersion",
    "involvedObject.resourceVersion",
    "involvedObject.fieldPath",
    "reason",
    "reportingComponent",
    "source",
    "type",
  ],
  // events.k8s.io names the same labels by its own fields, and has no `source`.
  "events.k8s.io/events": [
    "regarding.kind",
    "regarding.namespace",
    "regarding.name",
    "regarding.uid",
    "regarding.apiVersion",
    "regarding.resourceVersion",
    "regarding.fieldPath",
    "reason",
    "reportingController",
    "type",
  ],
  "/secrets": ["type"],
  "/namespaces": ["status.phase"],
  "/nodes": ["spec.unschedulable"],
  "/replicationcontrollers": ["status.replicas"],
  "apps/replicasets": ["status.replicas"],
  "batch/jobs": ["status.successful"],
  "certificates.k8s.io/certificatesigningrequests": ["spec.signerName"],
  "certificates.k8s.io/clustertrustbundles": ["spec.signerName"],
};

const RETURNS_DELETED = new Set([
  "storage.k8s.io/storageclasses",
  "storage.k8s.io/csidrivers",
  "storage.k8s.io/csinodes",
  "storage.k8s.io/volumeattachments",
  "storage.k8s.io/volumeattributesclasses",
  "resource.k8s.io/resourceclaims",
  "resource.k8s.io/resourceclaimtemplates",
  "resource.k8s.io/resourceslices",
  "resource.k8s.io/deviceclasses",
]);

export function tracksGeneration(group: string, resource: string): boolean {
  return GENERATION.has(`${group}/${resource}`);
}

export function fieldLabelsOf(group: string, resource: string): readonly string[] {
  return FIELD_LABELS[`${group}/${resource}`] ?? [];
}

/** Field labels whose value is not at their own path: a core event's `source` is its component. */
const FIELD_LABEL_PATHS: Record<string, Readonly<Record<string, string>>> = {
  "/events": { source: "source.component" },
};

/** The object path a field label reads. */
export function fieldLabelPath(group: string, resource: string, label: string): string {
  return FIELD_LABEL_PATHS[`${group}/${resource}`]?.[label] ?? label;
}

export function returnsDeletedObject(group: string, resource: string): boolean {
  return RETURNS_DELETED.has(`${group}/${resource}`);
}
