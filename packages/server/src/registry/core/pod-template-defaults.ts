/**
 * Defaults shared by pods and every kind with a pod template (workloads): the pod spec's and its
 * containers' defaults, and the RollingUpdate strategies of the apps kinds.
 */
import { child, isObj, type Obj, set } from "../default-fields.js";
import { defaultDownwardRefs, defaultVolumes, imagePullPolicy } from "./volume-defaults.js";

function defaultContainer(c: unknown): void {
  if (!isObj(c)) return;
  set(c, "terminationMessagePath", "/dev/termination-log");
  set(c, "terminationMessagePolicy", "File");
  set(c, "imagePullPolicy", imagePullPolicy(c.image));
  set(c, "resources", {});
  if (Array.isArray(c.ports)) for (const p of c.ports) if (isObj(p)) set(p, "protocol", "TCP");
  if (Array.isArray(c.env)) for (const e of c.env) if (isObj(e)) defaultDownwardRefs(e.valueFrom);
  for (const probe of ["livenessProbe", "readinessProbe", "startupProbe"]) defaultProbe(c[probe]);
  if (isObj(c.lifecycle)) {
    for (const hook of ["postStart", "preStop"]) {
      const h = c.lifecycle[hook];
      if (isObj(h)) defaultHttpGet(h.httpGet);
    }
    // The ContainerStopSignals gate is off in 1.37: the field is dropped, and a lifecycle left
    // empty with it.
    delete c.lifecycle.stopSignal;
    if (Object.keys(c.lifecycle).length === 0) delete c.lifecycle;
  }
}

/** An HTTP GET action's path and scheme (probes and lifecycle hooks alike). */
function defaultHttpGet(action: unknown): void {
  if (!isObj(action)) return;
  set(action, "path", "/");
  set(action, "scheme", "HTTP");
}

/** A probe's timings, and an HTTP GET probe's path and scheme, as core/v1 defaulting sets them. */
function defaultProbe(probe: unknown): void {
  if (!isObj(probe)) return;
  set(probe, "timeoutSeconds", 1);
  set(probe, "periodSeconds", 10);
  set(probe, "successThreshold", 1);
  set(probe, "failureThreshold", 3);
  defaultHttpGet(probe.httpGet);
}

/**
 * v1's deprecated `serviceAccount`: read when `serviceAccountName` is empty, and always written as
 * a copy of it (upstream's v1 conversion of a pod spec, so every stored pod spec shows both).
 */
function deprecatedServiceAccount(spec: Obj): void {
  const named = (v: unknown): v is string => typeof v === "string" && v !== "";
  if (!named(spec.serviceAccountName) && named(spec.serviceAccount))
    spec.serviceAccountName = spec.serviceAccount;
  if (named(spec.serviceAccountName)) spec.serviceAccount = spec.serviceAccountName;
  else delete spec.serviceAccount;
}

export function defaultPodSpec(spec: Obj): void {
  set(spec, "restartPolicy", "Always");
  set(spec, "terminationGracePeriodSeconds", 30);
  set(spec, "dnsPolicy", "ClusterFirst");
  set(spec, "securityContext", {});
  set(spec, "schedulerName", "default-scheduler");
  deprecatedServiceAccount(spec);
  // A volume without a source is an emptyDir.
  if (Array.isArray(spec.volumes))
    for (const v of spec.volumes) if (isObj(v) && !Object.keys(v).some((k) => k !== "name")) v.emptyDir = {};
  defaultVolumes(spec.volumes);
  for (const list of ["containers", "initContainers"]) {
    const cs = spec[list];
    if (Array.isArray(cs)) for (const c of cs) defaultContainer(c);
  }
}

/**
 * The template of a workload whose API holds it by value (every one but ReplicationController):
 * its pod spec is defaulted even when the request left it out, so validation reports what is
 * missing as upstream does (containers), not the defaults.
 */
export function defaultTemplate(spec: Obj): void {
  if (spec.template !== undefined && !isObj(spec.template)) return;
  defaultPodSpec(child(child(spec, "template"), "spec"));
}

/** ReplicaSets and ReplicationControllers: one replica, and the pod template's defaults. */
export function defaultReplicasAndTemplate(obj: Obj): void {
  const spec = child(obj, "spec");
  set(spec, "replicas", 1);
  defaultTemplate(spec);
}

/** A strategy defaults to RollingUpdate, whose parameters get `values` where unset. */
export function defaultRollingUpdate(
  strategy: Record<string, unknown>,
  values: Record<string, unknown>,
): void {
  set(strategy, "type", "RollingUpdate");
  if (strategy.type !== "RollingUpdate") return;
  const ru = child(strategy, "rollingUpdate");
  for (const [k, v] of Object.entries(values)) set(ru, k, v);
}
