// "List pods" with kubesdk, JSON only: the program whose minified bundle `pnpm pack:check` weighs
// against client-node's (list-pods-client-node.ts). Bundled, not run.
import { Kube } from "kubesdk";

const kube = await Kube.fromKubeconfig();
const pods = await kube.resource("v1", "Pod").list();
for (const pod of pods.items) console.log(pod.metadata?.name);
await kube.close();
