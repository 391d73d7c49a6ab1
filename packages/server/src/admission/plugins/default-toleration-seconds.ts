/**
 * DefaultTolerationSeconds (upstream plugin/pkg/admission/defaulttolerationseconds): a pod that
 * does not tolerate the `node.kubernetes.io/not-ready` or `unreachable` NoExecute taint (a
 * toleration with that key or no key, and effect NoExecute or none) gets one for 300 s, so that
 * the node lifecycle evicts it five minutes after its node is lost rather than at once
 * (cluster/node-lifecycle.ts waits the toleration out).
 */
import { type AdmissionPlugin, handlesOnly } from "../plugin.js";
import { isRecord, type Json, objectOf, recordAt } from "./target.js";

const DEFAULT_SECONDS = 300;
const TAINTS = ["node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"];

function tolerates(t: Json, key: string): boolean {
  const anyKey = t.key === undefined || t.key === "";
  const anyEffect = t.effect === undefined || t.effect === "";
  return (t.key === key || anyKey) && (t.effect === "NoExecute" || anyEffect);
}

export const defaultTolerationSeconds: AdmissionPlugin = {
  name: "DefaultTolerationSeconds",
  handles: handlesOnly("CREATE", "UPDATE"),
  admit(a) {
    const pod = objectOf(a, "", "pods");
    if (!pod) return;
    const spec = recordAt(pod, "spec");
    pod.spec = spec;
    const tolerations = Array.isArray(spec.tolerations) ? spec.tolerations : [];
    const added = TAINTS.filter((key) => !tolerations.some((t) => isRecord(t) && tolerates(t, key))).map(
      (key) => ({ key, operator: "Exists", effect: "NoExecute", tolerationSeconds: DEFAULT_SECONDS }),
    );
    if (added.length > 0) spec.tolerations = [...tolerations, ...added];
  },
};
