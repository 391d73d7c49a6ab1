/**
 * Admission: the ordered plugins every write passes (mutating phase, then validating phase).
 * The server's chain is upstream's default order restricted to the plugins implemented here;
 * CEL policies and webhooks slot in where upstream runs them (before ResourceQuota, last).
 */
import { AdmissionChain } from "./chain.js";
import { certificateSubjectRestriction } from "./plugins/certificate-subject-restriction.js";
import { defaultIngressClass } from "./plugins/default-ingress-class.js";
import { defaultStorageClass } from "./plugins/default-storage-class.js";
import { defaultTolerationSeconds } from "./plugins/default-toleration-seconds.js";
import { limitRanger } from "./plugins/limit-ranger.js";
import { namespaceLifecycle } from "./plugins/namespace-lifecycle.js";
import { persistentVolumeClaimResize } from "./plugins/persistent-volume-claim-resize.js";
import { podSecurity } from "./plugins/pod-security.js";
import { priority } from "./plugins/priority.js";
import { resourceQuota } from "./plugins/resource-quota.js";
import { runtimeClass } from "./plugins/runtime-class.js";
import { serviceAccount } from "./plugins/service-account.js";
import { storageObjectInUseProtection } from "./plugins/storage-object-in-use-protection.js";
import { taintNodesByCondition } from "./plugins/taint-nodes-by-condition.js";
import { type ApplyMerge, mutatingAdmissionPolicy, validatingAdmissionPolicy } from "./policies/index.js";
import { mutatingAdmissionWebhook, validatingAdmissionWebhook } from "./webhooks/index.js";

export type { AdmissionAttributes, AdmissionOperation } from "./attributes.js";
export { AdmissionChain } from "./chain.js";
export type { AdmissionContext } from "./context.js";
export { type AdmissionPlugin, forbidden, handlesOnly } from "./plugin.js";
export { quotaMatches } from "./plugins/resource-quota.js";
export { ROOT_CA_CONFIGMAP } from "./plugins/service-account-volume.js";
export type { ApplyMerge } from "./policies/index.js";
export type { ResourceList } from "./quota/amounts.js";
export { addLists, compareAmounts, mask } from "./quota/amounts.js";
export { evaluatorFor } from "./quota/evaluators.js";

/**
 * The plugins the reference server runs, in upstream's order; `applyMerge` is the server's typed
 * apply merge, which MutatingAdmissionPolicy's apply configurations use (it lives above this layer).
 */
export function defaultAdmissionChain(applyMerge?: ApplyMerge): AdmissionChain {
  return new AdmissionChain([
    namespaceLifecycle,
    limitRanger,
    serviceAccount,
    taintNodesByCondition,
    podSecurity,
    priority,
    defaultTolerationSeconds,
    defaultStorageClass,
    storageObjectInUseProtection,
    persistentVolumeClaimResize,
    runtimeClass,
    certificateSubjectRestriction,
    defaultIngressClass,
    mutatingAdmissionPolicy(applyMerge),
    mutatingAdmissionWebhook,
    validatingAdmissionPolicy(),
    validatingAdmissionWebhook,
    resourceQuota,
  ]);
}
