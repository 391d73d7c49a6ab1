/**
 * TaintNodesByCondition (upstream plugin/pkg/admission/nodetaint): a new Node is tainted
 * `node.kubernetes.io/not-ready:NoSchedule` (unless it already is), so that nothing is scheduled
 * on it before it reports Ready; the node lifecycle removes the taint then
 * (cluster/node-lifecycle.ts in the simulated cluster, kube-controller-manager upstream).
 */
import { type AdmissionPlugin, handlesOnly } from "../plugin.js";

type Json = Record<string, unknown>;

const NOT_READY = { key: "node.kubernetes.io/not-ready", effect: "NoSchedule" };

const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export const taintNodesByCondition: AdmissionPlugin = {
  name: "TaintNodesByCondition",
  handles: handlesOnly("CREATE"),
  admit(a) {
    const { group, resource } = a.resource;
    if (a.subresource !== "" || group !== "" || resource !== "nodes" || !isRecord(a.object)) return;
    const spec = isRecord(a.object.spec) ? a.object.spec : {};
    a.object.spec = spec;
    const taints = Array.isArray(spec.taints) ? spec.taints : [];
    const has = taints.some((t) => isRecord(t) && t.key === NOT_READY.key && t.effect === NOT_READY.effect);
    if (!has) spec.taints = [...taints, { ...NOT_READY }];
  },
};
