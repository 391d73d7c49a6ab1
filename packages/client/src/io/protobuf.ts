/**
 * Protobuf support from @kubesdk/models' wire codec: the codec the client uses by default, and a
 * dispatcher interceptor that turns protobuf Status error bodies into JSON.
 */
import { decodeObject, decodeWatchEvent, encodeObject, WireError } from "@kubesdk/models";
import { type DispatcherFactory, MalformedEventError, type RawWatchEvent } from "@kubesdk/transport";
import { mediaTypeOf, PROTOBUF_MEDIA_TYPE } from "../request/media.js";
import type { ProtobufCodec } from "./body-codec.js";

function hexExcerpt(bytes: Uint8Array): string {
  return Buffer.from(bytes.subarray(0, 32)).toString("hex") + (bytes.length > 32 ? "…" : "");
}

/** Built-in kinds in protobuf through @kubesdk/models (custom resources and Table stay JSON). */
export const modelsProtobufCodec: ProtobufCodec = {
  encode: (object, kind) => encodeObject(object, { kind }),
  decode: (bytes) => decodeObject(bytes),
  decodeWatchFrame(frame: Uint8Array): RawWatchEvent {
    try {
      return decodeWatchEvent(frame);
    } catch (err) {
      if (err instanceof WireError)
        throw new MalformedEventError(err.message, hexExcerpt(frame), { cause: err });
      throw err;
    }
  },
};

type Dispatcher = ReturnType<DispatcherFactory>;
type Interceptor = (dispatch: Dispatcher["dispatch"]) => Dispatcher["dispatch"];
type DispatchHandler = Parameters<Dispatcher["dispatch"]>[1];
type Controller = Parameters<NonNullable<DispatchHandler["onResponseStart"]>>[0];
type Headers = Parameters<NonNullable<DispatchHandler["onResponseStart"]>>[2];

// A Status is small; anything larger is not one and passes through untouched.
const MAX_STATUS_BYTES = 64 * 1024;

/** Wraps a dispatcher factory so its dispatchers pass protobuf error bodies on as JSON. */
export function withProtobufStatus(
  factory: DispatcherFactory,
  decode: (bytes: Uint8Array) => unknown,
): DispatcherFactory {
  const interceptor = protobufStatusAsJson(decode);
  return (settings, certificate) => factory(settings, certificate).compose(interceptor);
}

/**
 * A kube-apiserver that negotiated protobuf also sends its error Status in protobuf, while the
 * transport builds ApiErrors from JSON Status bodies. This interceptor decodes such error bodies
 * and hands them on as JSON, so ApiError keeps the server's reason, message and details.
 * (Belongs in the transport: it is here until the transport accepts a Status decoder.)
 */
export function protobufStatusAsJson(decode: (bytes: Uint8Array) => unknown): Interceptor {
  return (dispatch) => (options, handler) => dispatch(options, new StatusTranscoder(handler, decode));
}

class StatusTranscoder implements DispatchHandler {
  readonly #inner: DispatchHandler;
  readonly #decode: (bytes: Uint8Array) => unknown;
  #held:
    | {
        statusCode: number;
        headers: Headers;
        statusMessage: string | undefined;
        chunks: Buffer[];
        size: number;
      }
    | undefined;

  constructor(inner: DispatchHandler, decode: (bytes: Uint8Array) => unknown) {
    this.#inner = inner;
    this.#decode = decode;
  }

  onRequestStart(controller: Controller, context: unknown): void {
    this.#inner.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(...args: Parameters<NonNullable<DispatchHandler["onRequestUpgrade"]>>): void {
    this.#inner.onRequestUpgrade?.(...args);
  }

  onResponseStart(
    controller: Controller,
    statusCode: number,
    headers: Headers,
    statusMessage?: string,
  ): void {
    const contentType = headers["content-type"];
    if (
      statusCode >= 400 &&
      mediaTypeOf(Array.isArray(contentType) ? contentType[0] : contentType) === PROTOBUF_MEDIA_TYPE
    ) {
      this.#held = { statusCode, headers, statusMessage, chunks: [], size: 0 };
      return;
    }
    this.#inner.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    if (this.#held === undefined) {
      this.#inner.onResponseData?.(controller, chunk);
      return;
    }
    this.#held.chunks.push(chunk);
    this.#held.size += chunk.length;
  }

  onResponseEnd(controller: Controller, trailers: Headers): void {
    const held = this.#held;
    if (held === undefined) {
      this.#inner.onResponseEnd?.(controller, trailers);
      return;
    }
    const raw = Buffer.concat(held.chunks, held.size);
    const json = held.size <= MAX_STATUS_BYTES ? this.#statusJson(raw) : undefined;
    const body = json ?? raw;
    const headers: Headers =
      json === undefined
        ? held.headers
        : { ...held.headers, "content-type": "application/json", "content-length": String(body.length) };
    this.#inner.onResponseStart?.(controller, held.statusCode, headers, held.statusMessage);
    this.#inner.onResponseData?.(controller, body);
    this.#inner.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Controller, error: Error): void {
    this.#inner.onResponseError?.(controller, error);
  }

  #statusJson(raw: Buffer): Buffer | undefined {
    try {
      const status = this.#decode(raw);
      return (status as { kind?: unknown })?.kind === "Status"
        ? Buffer.from(JSON.stringify(status))
        : undefined;
    } catch {
      // Not a decodable Status: the transport reports the raw body as it is.
      return undefined;
    }
  }
}
