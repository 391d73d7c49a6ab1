/**
 * Services: ClusterIP by default, ports default their protocol and target port; the create
 * allocates a cluster IP and node ports (service-allocation.ts) and an update keeps them; validated
 * as validateService (service-validation.ts).
 */

import { objectAt } from "../../validation/field-errors.js";
import { child, isObj, set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";
import { allocateServiceFields, keepServiceAllocations } from "./service-allocation.js";
import { serviceErrors } from "./service-validation.js";

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
    if (Array.isArray(spec.ports))
      for (const p of spec.ports)
        if (isObj(p)) {
          set(p, "protocol", "TCP");
          // Upstream's zero IntOrString (0, "", or none) means "the same as port".
          if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === "") p.targetPort = p.port;
        }
  },
  prepareCreate(obj, ctx) {
    allocateServiceFields(ctx, obj);
  },
  allocates: true,
  prepareUpdate: keepServiceAllocations,
  validate: (obj) => serviceErrors(objectAt(obj.spec)),
};
