/**
 * Admission: the ordered plugins every write passes (mutating phase, then validating phase).
 * The server's chain is upstream's default order restricted to the plugins implemented here;
 * CEL policies and webhooks slot in where upstream runs them (before ResourceQuota, last).
 */
import { AdmissionChain } from "./chain.js";
import { namespaceLifecycle } from "./plugins/namespace-lifecycle.js";
import { mutatingAdmissionWebhook, validatingAdmissionWebhook } from "./webhooks/index.js";

export type { AdmissionAttributes, AdmissionOperation } from "./attributes.js";
export { AdmissionChain } from "./chain.js";
export type { AdmissionContext } from "./context.js";
export { type AdmissionPlugin, handlesOnly } from "./plugin.js";

/** The plugins the reference server runs, in upstream's order. */
export function defaultAdmissionChain(): AdmissionChain {
  return new AdmissionChain([namespaceLifecycle, mutatingAdmissionWebhook, validatingAdmissionWebhook]);
}
