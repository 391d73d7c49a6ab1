import {
  apiVersionOf,
  type GroupVersionKind,
  type Int64Mode,
  JSON_MEDIA_TYPE,
  mediaTypeOf,
  PROTOBUF_MEDIA_TYPE,
} from "@kubesdk/models";
import {
  type ApiRequest,
  type BodyReader,
  type HttpResponse,
  ResponseDecodeError,
  type ResponseHeaders,
  type WatchFrameDecoder,
} from "@kubesdk/transport";
import { decodeJsonBody } from "@kubesdk/transport/internal";
import { ClientError } from "../errors.js";

/**
 * Protobuf encoding of built-in kinds. The client holds none unless given one (`protobufCodec` from
 * `kubesdk/protobuf`, @kubesdk/models' wire codec), so a JSON-only program does not carry it.
 */
export interface ProtobufCodec {
  /** Enveloped protobuf of a built-in object; `kind` is used when the object carries no apiVersion/kind. */
  encode(object: object, kind: GroupVersionKind): Uint8Array;
  /** The JSON form of an enveloped protobuf object. */
  decode(bytes: Uint8Array): unknown;
  /** Decodes one length-prefixed protobuf watch frame. */
  readonly decodeWatchFrame: WatchFrameDecoder;
  /**
   * A reader that decodes a body as it arrives, with the same result as `decode` (for a list, item
   * by item, so its bytes are never held whole), except that a list's items start with `itemType`'s
   * apiVersion and kind when it is given. Without it, bodies are collected and then decoded.
   */
  readonly reader?: (itemType?: ItemType) => BodyReader<unknown>;
  /** The same codec giving int64 values beyond ±(2^53 − 1) as `int64` says (the client's `int64` option). */
  withInt64?(int64: Int64Mode): ProtobufCodec;
}

/** The apiVersion and kind of a list's items, which the client gives each item. */
export interface ItemType {
  readonly apiVersion: string;
  readonly kind: string;
}

/** Encodes request bodies and decodes response bodies by their Content-Type. */
export class BodyCodec {
  readonly protobuf: ProtobufCodec | undefined;

  constructor(protobuf?: ProtobufCodec) {
    this.protobuf = protobuf;
  }

  /** The request with its object body as protobuf (for built-in kinds, when a protobuf codec is set). */
  encodeProtobuf(request: ApiRequest, kind: GroupVersionKind): ApiRequest {
    if (this.protobuf === undefined) {
      throw new ClientError("PROTOBUF_UNSUPPORTED", "no protobuf codec is configured");
    }
    if (request.body === undefined || request.contentType !== JSON_MEDIA_TYPE) return request;
    // The envelope names the kind; objects written without apiVersion/kind get the resource's.
    const body = request.body as { apiVersion?: unknown; kind?: unknown };
    const typed =
      body.apiVersion && body.kind ? body : { ...body, apiVersion: apiVersionOf(kind), kind: kind.kind };
    return { ...request, body: this.protobuf.encode(typed, kind), contentType: PROTOBUF_MEDIA_TYPE };
  }

  /**
   * A reader decoding a successful body as it arrives, where its Content-Type has one (protobuf);
   * a list's items get `itemType`.
   */
  readerFor(headers: ResponseHeaders, itemType?: ItemType): BodyReader<unknown> | undefined {
    const make = this.protobuf?.reader;
    const contentType = firstHeader(headers["content-type"]);
    if (make === undefined || mediaTypeOf(contentType) !== PROTOBUF_MEDIA_TYPE) return undefined;
    const reader = make(itemType);
    const undecodable = (err: unknown) => {
      const reason = err instanceof Error ? err.message : String(err);
      return new ResponseDecodeError(`undecodable protobuf body: ${reason}`, contentType, { cause: err });
    };
    return {
      push(chunk) {
        try {
          reader.push(chunk);
        } catch (err) {
          throw undecodable(err);
        }
      },
      end() {
        try {
          return reader.end();
        } catch (err) {
          throw undecodable(err);
        }
      },
    };
  }

  /** The body of a successful response, decoded by its Content-Type (JSON when none is given). */
  decode(response: HttpResponse<Uint8Array>): unknown {
    const contentType = firstHeader(response.headers["content-type"]);
    const mediaType = mediaTypeOf(contentType);
    if (mediaType === PROTOBUF_MEDIA_TYPE) {
      if (this.protobuf === undefined) {
        throw new ResponseDecodeError("received protobuf but no protobuf codec is configured", contentType);
      }
      try {
        return this.protobuf.decode(response.body);
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        throw new ResponseDecodeError(`undecodable protobuf body: ${reason}`, contentType, { cause: err });
      }
    }
    if (mediaType !== "" && mediaType !== JSON_MEDIA_TYPE) {
      throw new ResponseDecodeError(`expected JSON or protobuf, got ${contentType}`, contentType);
    }
    return decodeJsonBody(response.body, contentType);
  }
}

export function firstHeader(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === "string" ? value : value?.[0];
}
