/** ValidatingWebhookConfigurations: upstream's defaults and validation of every webhook. */
import type { KindStrategy } from "../strategy.js";
import { defaultWebhooks, validateWebhooks } from "./webhook-configurations.js";

export const validatingwebhookconfigurations: KindStrategy = {
  group: "admissionregistration.k8s.io",
  resource: "validatingwebhookconfigurations",
  defaults: (obj) => defaultWebhooks("validating", obj),
  validate: (obj) => validateWebhooks("validating", obj),
};
