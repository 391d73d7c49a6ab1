/** MutatingWebhookConfigurations: upstream's defaults and validation of every webhook. */
import type { KindStrategy } from "../strategy.js";
import { defaultWebhooks, validateWebhooks } from "./webhook-configurations.js";

export const mutatingwebhookconfigurations: KindStrategy = {
  group: "admissionregistration.k8s.io",
  resource: "mutatingwebhookconfigurations",
  defaults: (obj) => defaultWebhooks("mutating", obj),
  validate: (obj) => validateWebhooks("mutating", obj),
};
