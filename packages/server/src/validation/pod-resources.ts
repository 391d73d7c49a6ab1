/**
 * Pod-level `spec.resources` (the PodLevelResources feature, on in 1.37), as kube-apiserver
 * validates it: only cpu, memory and hugepages, with a container's rules for quantities and
 * requests against limits; no claims; requests no smaller than the containers' aggregate
 * (aggregate-requests.ts); no container's limit above the pod's limit. Not done: the pod requests
 * upstream defaults from the containers' requests or the pod's limits (SV1d in docs/divergences.md).
 */
import { aggregateContainerRequests, formatTotal } from "./aggregate-requests.js";
import { type FieldError, forbidden, invalid, isObject, notSupported } from "./field-errors.js";
import { quantityValue } from "./quantity-value.js";
import { containerClaimErrors } from "./resource-claims.js";
import { isHugePagesResource, requirementsErrors, resourceNameErrors } from "./resources.js";

type Json = Record<string, unknown>;

const SUPPORTED = ["cpu", "hugepages-", "memory"];

function podResourceNameErrors(name: string, field: string): FieldError[] {
  const out = resourceNameErrors(name, field);
  if (name !== "cpu" && name !== "memory" && !isHugePagesResource(name))
    out.push(notSupported(field, name, SUPPORTED));
  return out;
}

const text = (v: unknown) => (typeof v === "number" ? String(v) : String(v ?? ""));

/** The pod's requests no smaller than its containers' aggregate requests. */
function aggregateErrors(spec: Json, podRequests: Json, at: string): FieldError[] {
  const out: FieldError[] = [];
  for (const [name, total] of aggregateContainerRequests(spec)) {
    if (!(name in podRequests)) continue;
    const pod = quantityValue(text(podRequests[name]));
    if (pod && total.value.compare(pod) > 0)
      out.push(
        invalid(
          `${at}.requests[${name}]`,
          text(podRequests[name]),
          `must be greater than or equal to aggregate container requests of ${formatTotal(total)}`,
        ),
      );
  }
  return out;
}

/** Each container's limit no larger than the pod's limit of the same resource. */
function containerLimitErrors(spec: Json, podLimits: Json, at: string): FieldError[] {
  const out: FieldError[] = [];
  const containers = Array.isArray(spec.containers) ? spec.containers : [];
  containers.forEach((c, i) => {
    const resources = isObject(c) && isObject(c.resources) ? c.resources : {};
    const limits = isObject(resources.limits) ? resources.limits : {};
    for (const [name, raw] of Object.entries(limits)) {
      if (!(name in podLimits)) continue;
      const own = quantityValue(text(raw));
      const pod = quantityValue(text(podLimits[name]));
      if (own && pod && own.compare(pod) > 0)
        out.push(
          invalid(
            `${at}.containers[${i}][${name}].limits`,
            text(raw),
            `must be less than or equal to pod limits of ${text(podLimits[name])}`,
          ),
        );
    }
  });
  return out;
}

/** The errors of `spec.resources`, at `at` (`spec.resources`). */
export function podResourcesErrors(spec: Json, at: string, podClaims: ReadonlySet<string>): FieldError[] {
  if (!isObject(spec.resources)) return [];
  const r = spec.resources;
  const out: FieldError[] = [];
  if (r.claims !== undefined && r.claims !== null)
    out.push(forbidden(`${at}.claims`, "claims may not be set for Resources at pod-level"));
  out.push(...containerClaimErrors(r.claims, `${at}.claims`, podClaims));
  out.push(...requirementsErrors(r, at, podResourceNameErrors));
  out.push(...aggregateErrors(spec, isObject(r.requests) ? r.requests : {}, at));
  out.push(...containerLimitErrors(spec, isObject(r.limits) ? r.limits : {}, at));
  return out;
}
