// kubesdk/protobuf: the protobuf codec for built-in kinds. Its own entry point because the generated
// codec is most of the SDK's size: a program carries it only if it imports this module.
//
//   import { Kube } from "kubesdk";
//   import { protobufCodec } from "kubesdk/protobuf";
//   const kube = await Kube.fromKubeconfig({ protobufCodec });

export { protobufCodec } from "@kubesdk/client/protobuf";
