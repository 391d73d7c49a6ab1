/**
 * Defaulting of built-in kinds, as the apiserver applies it when it decodes a
 * request (before validation and before managedFields are computed): the
 * commonly seen defaults of workloads, pod specs, containers and services.
 * Upstream keeps these in hand-written Go defaulters that no schema carries,
 * so they are listed here; kinds without an entry get no defaults.
 */
import { MORE_DEFAULTERS } from "./builtin-defaults-more.js";
import { child, isObj, type Obj, set } from "./default-fields.js";

function imageTagIsLatest(image: string): boolean {
  const lastSegment = image.slice(image.lastIndexOf("/") + 1);
  if (lastSegment.includes("@")) return false;
  const colon = lastSegment.indexOf(":");
  return colon < 0 || lastSegment.slice(colon + 1) === "latest";
}

function defaultContainer(c: unknown): void {
  if (!isObj(c)) return;
  set(c, "terminationMessagePath", "/dev/termination-log");
  set(c, "terminationMessagePolicy", "File");
  if (typeof c.image === "string")
    set(c, "imagePullPolicy", imageTagIsLatest(c.image) ? "Always" : "IfNotPresent");
  set(c, "resources", {});
  if (Array.isArray(c.ports)) for (const p of c.ports) if (isObj(p)) set(p, "protocol", "TCP");
}

function defaultPodSpec(spec: Obj): void {
  set(spec, "restartPolicy", "Always");
  set(spec, "terminationGracePeriodSeconds", 30);
  set(spec, "dnsPolicy", "ClusterFirst");
  set(spec, "securityContext", {});
  set(spec, "schedulerName", "default-scheduler");
  for (const list of ["containers", "initContainers"]) {
    const cs = spec[list];
    if (Array.isArray(cs)) for (const c of cs) defaultContainer(c);
  }
}

function defaultTemplate(spec: Obj): void {
  const template = spec.template;
  if (isObj(template) && isObj(template.spec)) defaultPodSpec(template.spec);
}

/** ReplicaSets and ReplicationControllers: one replica, and the pod template's defaults. */
function defaultReplicasAndTemplate(obj: Obj): void {
  const spec = child(obj, "spec");
  set(spec, "replicas", 1);
  defaultTemplate(spec);
}

/** A ReplicationController without labels of its own takes its template's (core/v1 defaulting). */
function defaultReplicationController(obj: Obj): void {
  defaultReplicasAndTemplate(obj);
  const meta = child(obj, "metadata");
  const template = (obj.spec as Obj).template as { metadata?: { labels?: Obj } } | undefined;
  const own = meta.labels as Obj | undefined;
  if ((own === undefined || Object.keys(own).length === 0) && template?.metadata?.labels)
    meta.labels = { ...template.metadata.labels };
}

/** A strategy defaults to RollingUpdate, whose parameters get `values` where unset. */
function defaultRollingUpdate(strategy: Record<string, unknown>, values: Record<string, unknown>): void {
  set(strategy, "type", "RollingUpdate");
  if (strategy.type !== "RollingUpdate") return;
  const ru = child(strategy, "rollingUpdate");
  for (const [k, v] of Object.entries(values)) set(ru, k, v);
}

const DEFAULTERS: Record<string, (obj: Obj) => void> = {
  "apps/deployments"(obj) {
    const spec = child(obj, "spec");
    set(spec, "replicas", 1);
    defaultRollingUpdate(child(spec, "strategy"), { maxUnavailable: "25%", maxSurge: "25%" });
    set(spec, "revisionHistoryLimit", 10);
    set(spec, "progressDeadlineSeconds", 600);
    defaultTemplate(spec);
  },
  "apps/replicasets": defaultReplicasAndTemplate,
  "apps/statefulsets"(obj) {
    const spec = child(obj, "spec");
    set(spec, "replicas", 1);
    set(spec, "podManagementPolicy", "OrderedReady");
    defaultRollingUpdate(child(spec, "updateStrategy"), { partition: 0 });
    set(spec, "revisionHistoryLimit", 10);
    const retention = child(spec, "persistentVolumeClaimRetentionPolicy");
    set(retention, "whenDeleted", "Retain");
    set(retention, "whenScaled", "Retain");
    defaultTemplate(spec);
  },
  "apps/daemonsets"(obj) {
    const spec = child(obj, "spec");
    defaultRollingUpdate(child(spec, "updateStrategy"), { maxUnavailable: 1, maxSurge: 0 });
    set(spec, "revisionHistoryLimit", 10);
    defaultTemplate(spec);
  },
  "batch/jobs"(obj) {
    const spec = child(obj, "spec");
    set(spec, "parallelism", 1);
    set(spec, "backoffLimit", 6);
    set(spec, "completionMode", "NonIndexed");
    set(spec, "suspend", false);
    set(spec, "podReplacementPolicy", "TerminatingOrFailed");
    if (spec.completions === undefined) spec.completions = 1;
    defaultTemplate(spec);
  },
  "batch/cronjobs"(obj) {
    const spec = child(obj, "spec");
    set(spec, "concurrencyPolicy", "Allow");
    set(spec, "suspend", false);
    set(spec, "successfulJobsHistoryLimit", 3);
    set(spec, "failedJobsHistoryLimit", 1);
  },
  "scheduling.k8s.io/priorityclasses"(obj) {
    set(obj, "preemptionPolicy", "PreemptLowerPriority");
  },
  "/pods"(obj) {
    const spec = child(obj, "spec");
    defaultPodSpec(spec);
    set(spec, "enableServiceLinks", true);
  },
  "/replicationcontrollers": defaultReplicationController,
  "/secrets"(obj) {
    // stringData is write-only: merged into data (base64) and dropped, as upstream converts it.
    if (isObj(obj.stringData)) {
      const data = child(obj, "data");
      for (const [k, v] of Object.entries(obj.stringData))
        if (typeof v === "string") data[k] = Buffer.from(v).toString("base64");
    }
    delete obj.stringData;
    set(obj, "type", "Opaque");
  },
  "/services"(obj) {
    const spec = child(obj, "spec");
    set(spec, "type", "ClusterIP");
    set(spec, "sessionAffinity", "None");
    if (spec.type !== "ExternalName") set(spec, "internalTrafficPolicy", "Cluster");
    if (Array.isArray(spec.ports))
      for (const p of spec.ports)
        if (isObj(p)) {
          set(p, "protocol", "TCP");
          set(p, "targetPort", p.port);
        }
  },
};

/** Applies the defaults of a built-in kind in place (no-op for kinds without defaults). */
export function applyBuiltinDefaults(group: string, resource: string, obj: Obj): void {
  const key = `${group}/${resource}`;
  (DEFAULTERS[key] ?? MORE_DEFAULTERS[key])?.(obj);
}
