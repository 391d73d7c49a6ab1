/**
 * The protobuf codec for built-in kinds: @kubesdk/models' wire codec for bodies, and the transport's
 * frame decoder (the same codec) for watches. Published only through the `@kubesdk/client/protobuf`
 * entry point (and `kubesdk/protobuf`): importing it is what puts the generated codec (about 1.8 MB
 * minified) into a program, so a program that never speaks protobuf leaves it out.
 */
import { decodeObject, encodeObject, type Int64Mode, ProtobufListDecoder } from "@kubesdk/models";
import { protobufWatchFrameDecoder } from "@kubesdk/transport/internal";
import type { ProtobufCodec } from "./body-codec.js";

/**
 * Built-in kinds in protobuf through @kubesdk/models (custom resources and Table stay JSON): give it
 * to a client as `protobufCodec`. int64 values beyond ±(2^53 − 1) fail a decode with a WireError
 * PROTOBUF_INT64 unless the client's `int64` option (or `withInt64`) says "bigint" or "string".
 */
export const protobufCodec: ProtobufCodec = modelsProtobufCodecFor("number");

function modelsProtobufCodecFor(int64: Int64Mode): ProtobufCodec {
  return {
    encode: (object, kind) => encodeObject(object, { kind }),
    decode: int64 === "number" ? (bytes) => decodeObject(bytes) : (bytes) => decodeObject(bytes, { int64 }),
    decodeWatchFrame: protobufWatchFrameDecoder(int64),
    reader: (itemType) => new ProtobufListDecoder(itemType === undefined ? { int64 } : { int64, itemType }),
    withInt64: modelsProtobufCodecFor,
  };
}
