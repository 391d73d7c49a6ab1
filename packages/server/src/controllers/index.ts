/** The in-process controllers the reference server runs unless `controllers: false`. */
import type { HandlerContext } from "../endpoints/handlers/context.js";
import { GarbageCollector } from "./garbage-collector.js";
import { NamespaceController } from "./namespace-controller.js";
import { PolicyStatusController } from "./policy-status-controller.js";
import { ResourceQuotaController } from "./resource-quota-controller.js";
import { rootCaPublisher } from "./root-ca-publisher.js";
import { serviceAccountController } from "./service-account-controller.js";
import { StorageProtectionController } from "./storage-protection-controller.js";

export interface Controllers {
  close(): void;
}

export interface ControllerOptions {
  /** The CA the server's certificate chains to, published to every namespace; none over plain HTTP. */
  readonly rootCaPem?: string | undefined;
}

export function startControllers(ctx: HandlerContext, options: ControllerOptions = {}): Controllers {
  const running: Controllers[] = [
    new GarbageCollector(ctx),
    new NamespaceController(ctx),
    new PolicyStatusController(ctx),
    new ResourceQuotaController(ctx),
    serviceAccountController(ctx),
    new StorageProtectionController(ctx),
    ...(options.rootCaPem === undefined ? [] : [rootCaPublisher(ctx, options.rootCaPem)]),
  ];
  return {
    close() {
      for (const c of running) c.close();
    },
  };
}
