/**
 * The protobuf codec the client uses by default: @kubesdk/models' wire codec for bodies, and the
 * transport's built-in frame decoder (the same codec) for watches. Protobuf Status error bodies
 * are read by the transport itself.
 */
import { decodeObject, encodeObject } from "@kubesdk/models";
import { decodeProtobufWatchFrame } from "@kubesdk/transport/internal";
import type { ProtobufCodec } from "./body-codec.js";

/** Built-in kinds in protobuf through @kubesdk/models (custom resources and Table stay JSON). */
export const modelsProtobufCodec: ProtobufCodec = {
  encode: (object, kind) => encodeObject(object, { kind }),
  decode: (bytes) => decodeObject(bytes),
  decodeWatchFrame: decodeProtobufWatchFrame,
};
