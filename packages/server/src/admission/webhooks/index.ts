/** Admission webhooks: the two plugins that call ValidatingWebhookConfigurations and MutatingWebhookConfigurations. */
export { mutatingAdmissionWebhook } from "./mutating.js";
export { validatingAdmissionWebhook } from "./validating.js";
