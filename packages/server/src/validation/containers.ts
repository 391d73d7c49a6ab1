/**
 * A pod's containers and init containers as upstream validates them: names (DNS-1123 labels,
 * unique across both lists), image, termination message policy, ports, environment (pod-env.ts),
 * volume mounts and devices, pull policy, resources and resource claims, and the probes and
 * lifecycle hooks only regular and sidecar containers may have.
 */

import {
  duplicate,
  type FieldError,
  forbidden,
  invalid,
  isObject,
  listAt,
  notSupported,
  objectAt,
  required,
  stringAt,
} from "./field-errors.js";
import { portNameProblems, portNumberProblems } from "./format-rules.js";
import { dns1123LabelProblems } from "./name-formats.js";
import { envErrors, envFromErrors } from "./pod-env.js";
import { containerProbeErrors, lifecycleErrors } from "./probes.js";
import { containerClaimErrors } from "./resource-claims.js";
import { containerResourceErrors } from "./resources.js";
import { containerSecurityContextErrors } from "./security-context.js";
import { volumeDeviceErrors, volumeMountErrors } from "./volume-mounts.js";

type Json = Record<string, unknown>;

/** What a container is checked against: the pod's valid volumes, its claim names, its grace period. */
export interface PodContext {
  readonly volumes: ReadonlyMap<string, Json>;
  readonly claims: ReadonlySet<string>;
  readonly grace: unknown;
  readonly restartPolicy: unknown;
  /** false for a pod in its own user namespace (`hostUsers: false`). */
  readonly hostUsers: boolean;
}

const RESIZE_RESOURCES = ["cpu", "memory"];
const RESIZE_POLICIES = ["NotRequired", "RestartContainer"];

/** validateResizePolicy: cpu and memory once each, a known policy, NotRequired in a Never pod. */
function resizePolicyErrors(policies: unknown, at: string, podRestart: unknown): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  listAt(policies).forEach((raw, i) => {
    const p = objectAt(raw);
    const name = stringAt(p.resourceName);
    const policy = stringAt(p.restartPolicy);
    if (seen.has(name)) out.push(duplicate(`${at}[${i}]`, name));
    seen.add(name);
    if (name === "") out.push(required(at));
    else if (!RESIZE_RESOURCES.includes(name)) out.push(notSupported(at, name, RESIZE_RESOURCES));
    if (policy === "") out.push(required(at));
    else if (!RESIZE_POLICIES.includes(policy)) out.push(notSupported(at, policy, RESIZE_POLICIES));
    if (podRestart === "Never" && policy !== "NotRequired")
      out.push(invalid(at, policy, "must be 'NotRequired' when pod `restartPolicy` is 'Never'"));
  });
  return out;
}

export function dnsLabelErrors(value: string, field: string): FieldError[] {
  return dns1123LabelProblems(value).map((m) => invalid(field, value, m));
}

function portErrors(ports: unknown, at: string): FieldError[] {
  const out: FieldError[] = [];
  const names = new Set<string>();
  listAt(ports).forEach((raw, i) => {
    const p = objectAt(raw);
    const path = `${at}[${i}]`;
    const name = stringAt(p.name);
    if (name !== "") {
      const problems = portNameProblems(name);
      for (const m of problems) out.push(invalid(`${path}.name`, name, m));
      if (problems.length === 0 && names.has(name)) out.push(duplicate(`${path}.name`, name));
      names.add(name);
    }
    const containerPort = typeof p.containerPort === "number" ? p.containerPort : 0;
    if (containerPort === 0) out.push(required(`${path}.containerPort`));
    else
      for (const m of portNumberProblems(containerPort))
        out.push(invalid(`${path}.containerPort`, containerPort, m));
    if (typeof p.hostPort === "number" && p.hostPort !== 0)
      for (const m of portNumberProblems(p.hostPort)) out.push(invalid(`${path}.hostPort`, p.hostPort, m));
    const protocol = stringAt(p.protocol);
    if (protocol === "") out.push(required(`${path}.protocol`));
    else if (!["SCTP", "TCP", "UDP"].includes(protocol))
      out.push(notSupported(`${path}.protocol`, protocol, ["SCTP", "TCP", "UDP"]));
  });
  return out;
}

const PULL_POLICIES = ["Always", "IfNotPresent", "Never"];

/** validateContainerCommon: what every kind of container is held to. */
function containerCommonErrors(c: Json, at: string, pod: PodContext): FieldError[] {
  const out: FieldError[] = [];
  const name = stringAt(c.name);
  if (name === "") out.push(required(`${at}.name`));
  else out.push(...dnsLabelErrors(name, `${at}.name`));
  if (stringAt(c.image) === "") out.push(required(`${at}.image`));
  const tmp = stringAt(c.terminationMessagePolicy);
  if (tmp === "") out.push(required(`${at}.terminationMessagePolicy`));
  else if (tmp !== "File" && tmp !== "FallbackToLogsOnError")
    out.push(notSupported(`${at}.terminationMessagePolicy`, tmp, ["File", "FallbackToLogsOnError"]));
  out.push(...portErrors(c.ports, `${at}.ports`));
  out.push(...envErrors(c.env, `${at}.env`, pod.volumes));
  out.push(...envFromErrors(c.envFrom, `${at}.envFrom`));
  out.push(...volumeMountErrors(c, pod.volumes, `${at}.volumeMounts`));
  out.push(...volumeDeviceErrors(c, pod.volumes, `${at}.volumeDevices`));
  const pull = stringAt(c.imagePullPolicy);
  if (pull === "") out.push(required(`${at}.imagePullPolicy`));
  else if (!PULL_POLICIES.includes(pull))
    out.push(notSupported(`${at}.imagePullPolicy`, pull, PULL_POLICIES));
  out.push(...containerResourceErrors(c.resources, `${at}.resources`));
  const claims = objectAt(c.resources).claims;
  out.push(...containerClaimErrors(claims, `${at}.resources.claims`, pod.claims));
  out.push(...resizePolicyErrors(c.resizePolicy, `${at}.resizePolicy`, pod.restartPolicy));
  out.push(...containerSecurityContextErrors(c.securityContext, `${at}.securityContext`, pod.hostUsers));
  return out;
}

/** validateContainers: at least one, unique names, probes allowed. */
export function containersErrors(containers: unknown, at: string, pod: PodContext): FieldError[] {
  const list = listAt(containers);
  if (list.length === 0) return [required(at)];
  const out: FieldError[] = [];
  const names = new Set<string>();
  list.forEach((raw, i) => {
    const c = objectAt(raw);
    const path = `${at}[${i}]`;
    out.push(...containerCommonErrors(c, path, pod));
    const name = stringAt(c.name);
    if (names.has(name)) out.push(duplicate(`${path}.name`, name));
    else names.add(name);
    out.push(...lifecycleErrors(c.lifecycle, `${path}.lifecycle`, pod.grace));
    out.push(...containerProbeErrors(c, path));
    out.push(...containerRestartPolicyErrors(c.restartPolicy, path));
  });
  out.push(...hostPortConflicts(list, at));
  return out;
}

/** Two ports of a pod's containers may not claim the same protocol, host IP and host port. */
function hostPortConflicts(list: readonly unknown[], at: string): FieldError[] {
  const out: FieldError[] = [];
  const taken = new Set<string>();
  list.forEach((raw, i) => {
    listAt(objectAt(raw).ports).forEach((p, j) => {
      const port = objectAt(p);
      if (typeof port.hostPort !== "number" || port.hostPort === 0) return;
      const key = `${stringAt(port.protocol)}/${stringAt(port.hostIP)}/${port.hostPort}`;
      if (taken.has(key)) out.push(duplicate(`${at}[${i}].ports[${j}].hostPort`, key));
      taken.add(key);
    });
  });
  return out;
}

const CONTAINER_RESTART_POLICIES = ["Always", "Never", "OnFailure"];

/** A container's own restart policy (container restart rules are on in 1.37). */
function containerRestartPolicyErrors(policy: unknown, at: string): FieldError[] {
  if (policy == null || CONTAINER_RESTART_POLICIES.includes(stringAt(policy))) return [];
  return [notSupported(`${at}.restartPolicy`, stringAt(policy), CONTAINER_RESTART_POLICIES)];
}

const INIT_ONLY_WITH_ALWAYS = "may not be set for init containers without restartPolicy=Always";

/** validateInitContainers: names unique across both lists; probes only for sidecars. */
export function initContainersErrors(
  init: unknown,
  regular: unknown,
  at: string,
  pod: PodContext,
): FieldError[] {
  const out: FieldError[] = [];
  const names = new Set(listAt(regular).map((c) => stringAt(objectAt(c).name)));
  listAt(init).forEach((raw, i) => {
    const c = objectAt(raw);
    const path = `${at}[${i}]`;
    out.push(...containerCommonErrors(c, path, pod));
    const policy = c.restartPolicy;
    out.push(...containerRestartPolicyErrors(policy, path));
    const name = stringAt(c.name);
    if (names.has(name)) out.push(duplicate(`${path}.name`, name));
    else if (name !== "") names.add(name);
    if (policy === "Always") {
      out.push(...lifecycleErrors(c.lifecycle, `${path}.lifecycle`, pod.grace));
      out.push(...containerProbeErrors(c, path));
    } else
      for (const k of ["lifecycle", "livenessProbe", "readinessProbe", "startupProbe"])
        if (isObject(c[k])) out.push(forbidden(`${path}.${k}`, INIT_ONLY_WITH_ALWAYS));
  });
  return out;
}
