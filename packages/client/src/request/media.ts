/** The Accept headers of reads; the media type constants themselves live in @kubesdk/models. */
import { JSON_MEDIA_TYPE, PROTOBUF_MEDIA_TYPE } from "@kubesdk/models";

export { JSON_MEDIA_TYPE, PROTOBUF_MEDIA_TYPE };

/** What a read returns: the objects, a server-rendered Table, or metadata only. */
export type Representation = "object" | "table" | "metadata";

/** Whether the body of a request or response is JSON or protobuf. */
export type Encoding = "json" | "protobuf";

const TABLE = "application/json;as=Table;g=meta.k8s.io;v=v1";
const metadata = (base: string, list: boolean) =>
  `${base};as=PartialObjectMetadata${list ? "List" : ""};g=meta.k8s.io;v=v1`;

/**
 * The Accept header for a read. Protobuf asks for JSON as a fallback (custom resources have no
 * protobuf form, and the response is decoded by its Content-Type). Table is JSON-only upstream.
 * Table and metadata requests carry no plain-JSON fallback: a server that cannot render them
 * answers 406 instead of silently sending full objects.
 */
export function acceptFor(representation: Representation, encoding: Encoding, list: boolean): string {
  switch (representation) {
    case "table":
      return TABLE;
    case "metadata": {
      const json = metadata(JSON_MEDIA_TYPE, list);
      return encoding === "protobuf" ? `${metadata(PROTOBUF_MEDIA_TYPE, list)}, ${json}` : json;
    }
    case "object":
      return encoding === "protobuf" ? `${PROTOBUF_MEDIA_TYPE}, ${JSON_MEDIA_TYPE}` : JSON_MEDIA_TYPE;
  }
}
