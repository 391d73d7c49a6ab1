/**
 * The media types of the Kubernetes API, shared by the transport, the client and the reference
 * server so that each string is spelled once.
 */

export const JSON_MEDIA_TYPE = "application/json";
export const YAML_MEDIA_TYPE = "application/yaml";
/** Enveloped protobuf ("k8s\0" + runtime.Unknown); built-in kinds only. */
export const PROTOBUF_MEDIA_TYPE = "application/vnd.kubernetes.protobuf";
/** A protobuf watch stream: length-prefixed frames. */
export const PROTOBUF_WATCH_MEDIA_TYPE = `${PROTOBUF_MEDIA_TYPE};stream=watch`;
export const JSON_PATCH_MEDIA_TYPE = "application/json-patch+json";
export const MERGE_PATCH_MEDIA_TYPE = "application/merge-patch+json";
export const STRATEGIC_MERGE_PATCH_MEDIA_TYPE = "application/strategic-merge-patch+json";
/** Server-side apply (the body may be YAML or JSON, which is valid YAML). */
export const APPLY_PATCH_MEDIA_TYPE = "application/apply-patch+yaml";
export const APPLY_PATCH_CBOR_MEDIA_TYPE = "application/apply-patch+cbor";

/** The media type of a Content-Type header, lower-cased, parameters dropped ("" when absent). */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}
