/** The protobuf ⇄ JSON wire codec (re-exported from the package index). */
export { decodeObject, encodeObject, type WireObject, type WireOptions } from "./codec.js";
export { WireError, type WireErrorCode } from "./errors.js";
export {
  APPLY_PATCH_CBOR_MEDIA_TYPE,
  APPLY_PATCH_MEDIA_TYPE,
  JSON_MEDIA_TYPE,
  JSON_PATCH_MEDIA_TYPE,
  MERGE_PATCH_MEDIA_TYPE,
  mediaTypeOf,
  PROTOBUF_MEDIA_TYPE,
  PROTOBUF_WATCH_MEDIA_TYPE,
  STRATEGIC_MERGE_PATCH_MEDIA_TYPE,
  YAML_MEDIA_TYPE,
} from "./media-types.js";
export { decodeWatchEvent, encodeWatchEvent, type WatchEvent, type WatchEventType } from "./watch.js";
