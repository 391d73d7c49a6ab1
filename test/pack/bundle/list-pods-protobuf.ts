// "List pods" with kubesdk over protobuf: the same program opting into the codec, to show its cost.
import { Kube } from "kubesdk";
import { protobufCodec } from "kubesdk/protobuf";

const kube = await Kube.fromKubeconfig({ protobuf: true, protobufCodec });
const pods = await kube.resource("v1", "Pod").list();
for (const pod of pods.items) console.log(pod.metadata?.name);
await kube.close();
