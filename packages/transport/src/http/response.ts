import type { Dispatcher } from "undici";
import { type ApiError, type ApiErrorRequest, apiErrorFromResponse } from "../errors/api-error.js";
import type { ProtobufBodyDecoder } from "../errors/protobuf-status.js";

/** Response headers, lower-cased names. */
export type ResponseHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** A complete response. */
export interface HttpResponse<B> {
  readonly status: number;
  readonly headers: ResponseHeaders;
  readonly body: B;
}

/** Receives a streamed body chunk by chunk as it arrives (see {@link StreamResponse.flow}). */
export interface BodySink {
  chunk(chunk: Uint8Array): void;
  /** The body is complete; nothing follows. */
  end(): void;
  /** The body failed (a typed transport error); nothing follows. */
  fail(error: unknown): void;
}

/** Reads a response body as it arrives (see HttpTransport.requestRead); `end` gives the result. */
export interface BodyReader<T> {
  push(chunk: Uint8Array): void;
  end(): T;
}

/** Flow control of a body handed to a {@link BodySink}: a paused body stops reading the socket. */
export interface BodyFlow {
  pause(): void;
  resume(): void;
}

/**
 * A successful response whose body is read as it arrives: either iterate `body`, or hand it to a
 * sink with `flow()` (one or the other). Reading to the end, breaking out of the loop, or calling
 * `close()` releases the connection.
 */
export interface StreamResponse {
  readonly status: number;
  readonly headers: ResponseHeaders;
  readonly contentType: string | undefined;
  readonly body: AsyncIterable<Uint8Array>;
  /**
   * Pushes each chunk to `sink` as it arrives, without a promise per chunk and without joining
   * chunks that wait. After `close()` the sink hears nothing more.
   */
  flow(sink: BodySink): BodyFlow;
  close(): void;
}

// Error bodies are read only this far: enough for any Status, bounded for a proxy's HTML page.
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/**
 * Destroys a response body that may still be streaming. undici emits an "aborted" error when an
 * unfinished body is destroyed; without a listener that would become an uncaught exception.
 */
export function releaseBody(body: Dispatcher.ResponseData["body"]): void {
  if (body.destroyed) return;
  body.on("error", () => {});
  body.destroy();
}

/** The first value of a header. */
export function header(headers: ResponseHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Reads (a bounded prefix of) a failed response and turns it into an ApiError. */
export async function apiErrorOf(
  res: Dispatcher.ResponseData,
  request: ApiErrorRequest,
  protobufDecoder?: ProtobufBodyDecoder,
): Promise<ApiError> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= MAX_ERROR_BODY_BYTES) break;
    }
  } catch {
    // A body cut short still yields an ApiError from the status code and what arrived.
  } finally {
    releaseBody(res.body);
  }
  return apiErrorFromResponse({
    statusCode: res.statusCode,
    contentType: header(res.headers, "content-type"),
    retryAfter: header(res.headers, "retry-after"),
    body: Buffer.concat(chunks, size).subarray(0, MAX_ERROR_BODY_BYTES),
    request,
    ...(protobufDecoder !== undefined ? { protobufDecoder } : {}),
  });
}
