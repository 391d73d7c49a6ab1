/**
 * Defaults shared by pods and every kind with a pod template (workloads): the pod spec's and its
 * containers' defaults, and the RollingUpdate strategies of the apps kinds.
 */
import { child, isObj, type Obj, set } from "../default-fields.js";

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

export function defaultPodSpec(spec: Obj): void {
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

export function defaultTemplate(spec: Obj): void {
  const template = spec.template;
  if (isObj(template) && isObj(template.spec)) defaultPodSpec(template.spec);
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
