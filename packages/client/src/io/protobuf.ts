/**
 * The protobuf codec the client uses by default: @kubesdk/models' wire codec for bodies, and the
 * transport's built-in frame decoder (the same codec) for watches. Protobuf Status error bodies
 * are read by the transport itself.
 */
import { decodeObject, encodeObject, type Int64Mode, ProtobufListDecoder } from "@kubesdk/models";
import { protobufWatchFrameDecoder } from "@kubesdk/transport/internal";
import type { ProtobufCodec } from "./body-codec.js";

/** Built-in kinds in protobuf through @kubesdk/models (custom resources and Table stay JSON). */
export const modelsProtobufCodec: ProtobufCodec = modelsProtobufCodecFor("number");

/**
 * The models codec decoding int64 values beyond ±(2^53 − 1) as `int64` says: "number" throws a
 * WireError PROTOBUF_INT64 for them, "bigint" and "string" give them exactly.
 */
export function modelsProtobufCodecFor(int64: Int64Mode): ProtobufCodec {
  return {
    encode: (object, kind) => encodeObject(object, { kind }),
    decode: int64 === "number" ? (bytes) => decodeObject(bytes) : (bytes) => decodeObject(bytes, { int64 }),
    decodeWatchFrame: protobufWatchFrameDecoder(int64),
    reader: (itemType) => new ProtobufListDecoder(itemType === undefined ? { int64 } : { int64, itemType }),
  };
}
