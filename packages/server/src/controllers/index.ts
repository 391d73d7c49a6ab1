/** The in-process controllers the reference server runs unless `controllers: false`. */
import type { HandlerContext } from "../endpoints/handlers/context.js";
import { GarbageCollector } from "./garbage-collector.js";
import { NamespaceController } from "./namespace-controller.js";
import { PolicyStatusController } from "./policy-status-controller.js";
import { ResourceQuotaController } from "./resource-quota-controller.js";

export interface Controllers {
  close(): void;
}

export function startControllers(ctx: HandlerContext): Controllers {
  const gc = new GarbageCollector(ctx);
  const namespaces = new NamespaceController(ctx);
  const policyStatus = new PolicyStatusController(ctx);
  const quotas = new ResourceQuotaController(ctx);
  return {
    close() {
      gc.close();
      namespaces.close();
      policyStatus.close();
      quotas.close();
    },
  };
}
