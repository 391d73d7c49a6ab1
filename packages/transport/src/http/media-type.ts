/** Media types the transport itself interprets (error bodies and watch streams). */

export const PROTOBUF_MEDIA_TYPE = "application/vnd.kubernetes.protobuf";

/** The media type of a Content-Type header, lower-cased, parameters dropped. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}
