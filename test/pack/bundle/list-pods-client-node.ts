// "List pods" with @kubernetes/client-node, the yardstick for kubesdk's bundle size.
import * as k8s from "@kubernetes/client-node";

const config = new k8s.KubeConfig();
config.loadFromDefault();
const core = config.makeApiClient(k8s.CoreV1Api);
const pods = await core.listNamespacedPod({
  namespace: config.getContextObject(config.currentContext)?.namespace ?? "default",
});
for (const pod of pods.items) console.log(pod.metadata?.name);
