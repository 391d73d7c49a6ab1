/** The protobuf ⇄ JSON wire codec (re-exported from the package index). */
export { decodeObject, encodeObject, type WireObject, type WireOptions } from "./codec.js";
export { WireError, type WireErrorCode } from "./errors.js";
export type { Int64Mode } from "./int64.js";
export { type ListDecoderOptions, ProtobufListDecoder } from "./list-stream.js";
export { canonicalQuantity } from "./quantity.js";
export { decodeWatchEvent, encodeWatchEvent, type WireWatchEvent, type WireWatchEventType } from "./watch.js";
