/**
 * Services: ClusterIP by default, ports default their protocol and target port; the create
 * allocates a cluster IP and node ports (service-allocation.ts) and an update keeps them; validated
 * as validateService (service-validation.ts), /status writes as ValidateServiceStatusUpdate
 * (service-status.ts).
 */

import { objectAt } from "../../validation/field-errors.js";
import { loadBalancerIngress } from "../../validation/load-balancer.js";
import { child, isObj, set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";
import { allocateServiceFields, keepServiceAllocations } from "./service-allocation.js";
import { serviceStatusErrors } from "./service-status.js";
import { serviceErrors } from "./service-validation.js";

/** Upstream's ExternallyAccessible: a node port, a load balancer, or a ClusterIP with external IPs. */
function externallyAccessible(spec: Record<string, unknown>): boolean {
  if (spec.type === "NodePort" || spec.type === "LoadBalancer") return true;
  return spec.type === "ClusterIP" && Array.isArray(spec.externalIPs) && spec.externalIPs.length > 0;
}

export const services: KindStrategy = {
  group: "",
  resource: "services",
  defaults(obj) {
    const spec = child(obj, "spec");
    set(spec, "type", "ClusterIP");
    set(spec, "sessionAffinity", "None");
    // No affinity has no configuration; ClientIP affinity lasts three hours unless told otherwise.
    if (spec.sessionAffinity === "None") delete spec.sessionAffinityConfig;
    if (spec.sessionAffinity === "ClientIP") {
      const clientIP = child(child(spec, "sessionAffinityConfig"), "clientIP");
      set(clientIP, "timeoutSeconds", 10800);
    }
    if (spec.type !== "ExternalName") set(spec, "internalTrafficPolicy", "Cluster");
    // An externally reachable Service routes external traffic cluster-wide unless told otherwise;
    // a load balancer allocates node ports unless told otherwise.
    if (externallyAccessible(spec)) set(spec, "externalTrafficPolicy", "Cluster");
    if (spec.type === "LoadBalancer") set(spec, "allocateLoadBalancerNodePorts", true);
    if (Array.isArray(spec.ports))
      for (const p of spec.ports)
        if (isObj(p)) {
          set(p, "protocol", "TCP");
          // Upstream's zero IntOrString (0, "", or none) means "the same as port".
          if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === "") p.targetPort = p.port;
        }
    // A load balancer's address without a mode is a virtual IP.
    if (spec.type === "LoadBalancer")
      for (const ing of loadBalancerIngress(obj)) if (ing.ip) set(ing, "ipMode", "VIP");
  },
  prepareCreate(obj, ctx) {
    allocateServiceFields(ctx, obj);
  },
  allocates: true,
  prepareUpdate: keepServiceAllocations,
  validate: (obj, old, subresource) =>
    subresource === "status" ? serviceStatusErrors(obj, old) : serviceErrors(objectAt(obj.spec)),
};
