/**
 * Pods: the pod spec's defaults, a Pending status with the QoS class at create (with matchLabelKeys
 * merged into selectors and AppArmor annotations copied into fields, as upstream's PrepareForCreate
 * does), eight field labels, pod-warnings.ts's warnings; validated as ValidatePodCreate and ValidatePodUpdate (pod-rules.ts),
 * /status writes as ValidatePodStatusUpdate (pod-status-rules.ts), after keeping what a status
 * write may not clear (the QoS class, observed generations), as upstream's status strategy does.
 */

import { copyAppArmorAnnotations } from "../../validation/apparmor-annotations.js";
import { objectAt, stringAt } from "../../validation/field-errors.js";
import { mergeLabelKeysIntoSelectors } from "../../validation/label-keys.js";
import { podSpecWarnings } from "../../validation/pod-warnings.js";
import { ephemeralClaimNameErrors } from "../../validation/volumes.js";
import { child, isObj, set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";
import { podQosClass } from "./pod-qos.js";
import { podCreateErrors, podUpdateErrors } from "./pod-rules.js";
import { podStatusErrors } from "./pod-status-rules.js";
import { defaultPodSpec } from "./pod-template-defaults.js";

/**
 * A status write that leaves out the QoS class or an observed generation keeps the stored one:
 * older kubelets drop the QoS class, and clients that replace the status may not know the fields.
 */
function keepStatusFields(next: Record<string, unknown>, old: Record<string, unknown>): void {
  const status = child(next, "status");
  const before = objectAt(old.status);
  if (!status.qosClass && before.qosClass) status.qosClass = before.qosClass;
  if (!status.observedGeneration && before.observedGeneration)
    status.observedGeneration = before.observedGeneration;
  const oldConditions = Array.isArray(before.conditions) ? before.conditions.filter(isObj) : [];
  for (const c of Array.isArray(status.conditions) ? status.conditions.filter(isObj) : []) {
    if (c.observedGeneration) continue;
    const was = oldConditions.find((o) => o.type === c.type);
    if (was?.observedGeneration) c.observedGeneration = was.observedGeneration;
  }
}

function requestsFromLimits(c: unknown): void {
  if (!isObj(c) || !isObj(c.resources) || !isObj(c.resources.limits)) return;
  const requests = child(c.resources, "requests");
  for (const [k, v] of Object.entries(c.resources.limits)) set(requests, k, v);
}

/**
 * A host-network pod's ports are the host's: a port without a hostPort takes its containerPort
 * (upstream's pod defaults; templates are left alone, DefaultHostNetworkHostPortsInPodTemplates off).
 */
function hostNetworkPorts(c: unknown): void {
  const ports = objectAt(c).ports;
  if (!Array.isArray(ports)) return;
  for (const p of ports) {
    const port = objectAt(p);
    if ((port.hostPort === undefined || port.hostPort === 0) && typeof port.containerPort === "number")
      port.hostPort = port.containerPort;
  }
}

export const pods: KindStrategy = {
  group: "",
  resource: "pods",
  // Old kubelets corrupt owner references; pods/status may not touch them.
  statusResetsMetadata: ["ownerReferences"],
  tracksGeneration: true,
  fieldLabels: [
    "spec.nodeName",
    "spec.restartPolicy",
    "spec.schedulerName",
    "spec.serviceAccountName",
    "spec.hostNetwork",
    "status.phase",
    "status.podIP",
    "status.nominatedNodeName",
  ],
  // Updates: kube-apiserver 1.37 answers none for an unchanged pod; the rest is SV1d's.
  warnings: (obj, old) => (old ? [] : podSpecWarnings(objectAt(obj.spec), objectAt(obj.metadata))),
  defaults(obj) {
    const spec = child(obj, "spec");
    // Pods only (not templates): a negative grace period reads 1, requests default to limits.
    if (typeof spec.terminationGracePeriodSeconds === "number" && spec.terminationGracePeriodSeconds < 0)
      spec.terminationGracePeriodSeconds = 1;
    for (const list of ["containers", "initContainers"])
      for (const c of Array.isArray(spec[list]) ? spec[list] : []) {
        requestsFromLimits(c);
        if (spec.hostNetwork === true) hostNetworkPorts(c);
      }
    defaultPodSpec(spec);
    set(spec, "enableServiceLinks", true);
  },
  prepareCreate(obj) {
    obj.status = { phase: "Pending", qosClass: podQosClass(objectAt(obj.spec)) };
    mergeLabelKeysIntoSelectors(obj);
    copyAppArmorAnnotations(obj);
  },
  prepareUpdate(next, old, subresource) {
    if (subresource === "status") keepStatusFields(next, old);
  },
  validate(obj, old, subresource) {
    if (subresource === "status") return podStatusErrors(obj, old);
    const spec = objectAt(obj.spec);
    return [
      ...(old
        ? podUpdateErrors(spec, objectAt(old.spec), obj.metadata, old.metadata)
        : podCreateErrors(spec, obj.metadata)),
      ...ephemeralClaimNameErrors(spec.volumes, stringAt(objectAt(obj.metadata).name), "spec.volumes"),
    ];
  },
};
