/** The protobuf ⇄ JSON wire codec (re-exported from the package index). */
export { decodeObject, encodeObject, type WireObject, type WireOptions } from "./codec.js";
export { WireError, type WireErrorCode } from "./errors.js";
export { decodeWatchEvent, encodeWatchEvent, type WatchEvent, type WatchEventType } from "./watch.js";
