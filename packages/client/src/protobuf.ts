// @kubesdk/client/protobuf: the protobuf codec for built-in kinds, an entry point of its own so that
// only programs that import it carry the generated codec (docs/guides/protobuf.md).
//
//   import { protobufCodec } from "@kubesdk/client/protobuf";
//   const kube = await Kube.fromKubeconfig({ protobufCodec });

export { protobufCodec } from "./io/protobuf.js";
