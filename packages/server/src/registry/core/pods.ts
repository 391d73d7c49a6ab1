/** Pods: the pod spec's defaults, a Pending BestEffort status at create, eight field labels. */
import { child, set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";
import { defaultPodSpec } from "./pod-template-defaults.js";

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
  defaults(obj) {
    const spec = child(obj, "spec");
    defaultPodSpec(spec);
    set(spec, "enableServiceLinks", true);
  },
  prepareCreate(obj) {
    obj.status = { phase: "Pending", qosClass: "BestEffort" };
  },
};
