/**
 * TaintNodesByCondition (upstream plugin/pkg/admission/nodetaint): a new Node is tainted
 * `node.kubernetes.io/not-ready:NoSchedule` (unless it already is), so that nothing is scheduled
 * on it before it reports Ready; the node lifecycle removes the taint then
 * (cluster/node-lifecycle.ts in the simulated cluster, kube-controller-manager upstream).
 */
import { type AdmissionPlugin, handlesOnly } from "../plugin.js";
import { isRecord, objectOf, recordAt } from "./target.js";

const NOT_READY = { key: "node.kubernetes.io/not-ready", effect: "NoSchedule" };

export const taintNodesByCondition: AdmissionPlugin = {
  name: "TaintNodesByCondition",
  handles: handlesOnly("CREATE"),
  admit(a) {
    const node = objectOf(a, "", "nodes");
    if (!node) return;
    const spec = recordAt(node, "spec");
    node.spec = spec;
    const taints = Array.isArray(spec.taints) ? spec.taints : [];
    const has = taints.some((t) => isRecord(t) && t.key === NOT_READY.key && t.effect === NOT_READY.effect);
    if (!has) spec.taints = [...taints, { ...NOT_READY }];
  },
};
