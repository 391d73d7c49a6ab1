/**
 * RuntimeClasses (node.k8s.io): the container runtime configuration a pod may ask for by name.
 * The handler is a DNS label fixed at creation; the pod overhead is a resource list, validated as
 * a container's limits; the scheduling node selector is a label map and its tolerations follow a
 * pod's toleration rules.
 */
import type { FieldError } from "../../api/status.js";
import { dnsLabelErrors } from "../../validation/containers.js";
import { immutable, isSet, type Json, obj, str } from "../../validation/field-errors.js";
import { containerResourceErrors } from "../../validation/resources.js";
import { labelMapErrors } from "../../validation/selector-rules.js";
import { tolerationsErrors } from "../../validation/tolerations.js";
import type { KindStrategy } from "../strategy.js";

/** An update is checked as a create, and its handler may not change. */
function runtimeClassErrors(rc: Json, old: Json | undefined): FieldError[] {
  const errs = dnsLabelErrors(str(rc.handler), "handler");
  const overhead = obj(rc.overhead);
  if (isSet(rc.overhead)) errs.push(...containerResourceErrors({ limits: overhead.podFixed }, "overhead"));
  const scheduling = obj(rc.scheduling);
  if (isSet(scheduling.nodeSelector))
    errs.push(...labelMapErrors(scheduling.nodeSelector, "scheduling.nodeSelector"));
  errs.push(...tolerationsErrors(scheduling.tolerations, "scheduling.tolerations"));
  // Checked declaratively upstream (1.37), which shows no value.
  if (old && str(rc.handler) !== str(old.handler)) errs.push(immutable("handler", null));
  return errs;
}

export const runtimeclasses: KindStrategy = {
  group: "node.k8s.io",
  resource: "runtimeclasses",
  validate: (rc, old) => runtimeClassErrors(rc, old),
};
