import type { GroupVersionKind } from "@kubesdk/models";
import type {
  ApiRequest,
  BodyReader,
  CallOptions,
  HttpResponse,
  HttpTransport,
  ResponseHeaders,
  WatchStreamOptions as TransportWatchOptions,
  WatchFrameDecoder,
  WatchStream,
} from "@kubesdk/transport";
import type { BodyCodec, ItemType } from "./body-codec.js";
import { type ApiWarning, parseWarnings } from "./warnings.js";

/** Per-call controls: cancellation and a header timeout. */
export interface RequestControl {
  readonly signal?: AbortSignal;
  /** Overrides the transport's header timeout (ms) for this call. */
  readonly timeoutMs?: number;
  /**
   * Overrides the transport's retry policy for this call; `false` sends it once. Callers that
   * retry on their own terms (an informer's reflector backs off and picks the resourceVersion to
   * resume at) turn transport retries off.
   */
  readonly retries?: CallOptions["retries"];
}

/** Per-watch controls: those of every call plus the idle timeout. */
export interface WatchControl extends RequestControl {
  /** No bytes (not even a bookmark) for this long ends the stream with IDLE_TIMEOUT (0: never). */
  readonly idleTimeoutMs?: number;
}

/** What every resource client shares: the transport, the body codec and the client's defaults. */
export interface ClientContext {
  readonly transport: HttpTransport;
  readonly codec: BodyCodec;
  /** Namespace used when a namespaced call names none. */
  readonly defaultNamespace: string;
  /** Ask for protobuf (built-in kinds only) instead of JSON. */
  readonly protobuf: boolean;
  /**
   * Whether `protobuf` was chosen (the client's `protobuf` option, or withEncoding) rather than
   * left to the default: informers default to protobuf only where nobody chose.
   */
  readonly encodingChosen: boolean;
  readonly onWarning: ((warning: ApiWarning) => void) | undefined;
  /** Decodes protobuf watch frames (undefined: the transport's decoder). */
  readonly watchFrameDecoder?: WatchFrameDecoder | undefined;
}

function callOptions(control: WatchControl): TransportWatchOptions {
  return {
    ...(control.signal !== undefined ? { signal: control.signal } : {}),
    ...(control.timeoutMs !== undefined ? { timeoutMs: control.timeoutMs } : {}),
    ...(control.retries !== undefined ? { retries: control.retries } : {}),
    ...(control.idleTimeoutMs !== undefined ? { idleTimeoutMs: control.idleTimeoutMs } : {}),
  };
}

/** What `peek` sees of a body collected whole: its headers, its leading bytes and its size. */
export interface BodyPeek {
  readonly headers: ResponseHeaders;
  /** At least the first 4 KiB of the body (all of it when shorter). */
  readonly head: Uint8Array;
  readonly bodyBytes: number;
}

/** How `send` reads a GET's body, beyond decoding it by its Content-Type. */
export interface BodyRead {
  /** Sees the body collected whole before it is decoded; decoding waits for the promise it may return. */
  readonly peek?: (body: BodyPeek) => Promise<void> | undefined;
  /** Hears the size of a body decoded as it arrived. */
  readonly streamed?: (bodyBytes: number) => void;
  /** The apiVersion and kind a protobuf list's items start with (see BodyCodec.readerFor). */
  readonly itemType?: ItemType | undefined;
}

/**
 * Sends a request and decodes the body by its Content-Type; Warning headers go to `onWarning`. A
 * GET's body is decoded as it arrives where the codec can (protobuf), and `streamed` then hears its
 * size, unless `peek` is given: then the body is collected whole and `peek` sees it before it is
 * decoded (so that the caller can ask for the next page while this one is decoded). A protobuf body
 * is collected as the chunks that arrived and decoded from them, joined first only when they are
 * small (see JOIN_BELOW).
 */
export async function send(
  context: ClientContext,
  request: ApiRequest,
  control: RequestControl,
  { peek, streamed, itemType }: BodyRead = {},
): Promise<unknown> {
  if (request.method !== "GET")
    return decoded(context, request, await context.transport.request(request, callOptions(control)));
  let read: { bytes: number; reader: BodyReader<unknown>; chunks: Uint8Array[] | undefined } | undefined;
  const response = await context.transport.requestRead(request, callOptions(control), (headers) => {
    // Each try chooses anew: a retried request may come back in the other encoding.
    const reader = context.codec.readerFor(headers, itemType);
    read =
      reader === undefined ? undefined : { bytes: 0, reader, chunks: peek === undefined ? undefined : [] };
    return read === undefined ? undefined : read.chunks === undefined ? counted(read) : collected(read);
  });
  if (read === undefined) {
    const body = response.body as Uint8Array;
    const peeked = peek?.({ headers: response.headers, head: body, bodyBytes: body.length });
    if (peeked !== undefined) await peeked;
    return decoded(context, request, response as HttpResponse<Uint8Array>);
  }
  const { bytes, reader, chunks } = read;
  if (chunks === undefined) {
    streamed?.(bytes);
    warn(context, request, response);
    return response.body;
  }
  const peeked = peek?.({ headers: response.headers, head: headOf(chunks), bodyBytes: bytes });
  if (peeked !== undefined) await peeked;
  warn(context, request, response);
  if (bytes < JOIN_BELOW * chunks.length) reader.push(Buffer.concat(chunks, bytes));
  else
    for (let i = 0; i < chunks.length; i++) {
      reader.push(chunks[i] as Uint8Array);
      chunks[i] = EMPTY; // let go once decoded
    }
  return reader.end();
}

const EMPTY = new Uint8Array(0);
/**
 * Chunks smaller than this on average are joined before they are decoded. Decoding from chunks
 * saves copying the body but costs some work per chunk, more still for an item cut between two:
 * over plain HTTP a socket read brings about 64 KiB, but kube-apiserver's TLS records hold about
 * 1.4 KiB each, so nearly every item of a page is cut, and one copy of the page costs less
 * (docs/performance-history.md, "Tenth pass").
 */
const JOIN_BELOW = 16 * 1024;
const HEAD_BYTES = 4096;

function decoded(context: ClientContext, request: ApiRequest, response: HttpResponse<Uint8Array>): unknown {
  warn(context, request, response);
  return context.codec.decode(response);
}

function warn(context: ClientContext, request: ApiRequest, response: HttpResponse<unknown>): void {
  if (context.onWarning === undefined) return;
  for (const text of parseWarnings(response.headers.warning)) {
    context.onWarning({ text, method: request.method, path: request.path });
  }
}

/** The first chunks of a body, joined until they hold HEAD_BYTES (a list's continue token lies there). */
function headOf(chunks: readonly Uint8Array[]): Uint8Array {
  const first = chunks[0] ?? EMPTY;
  if (first.length >= HEAD_BYTES || chunks.length === 1) return first;
  let n = 0;
  let bytes = 0;
  while (n < chunks.length && bytes < HEAD_BYTES) bytes += (chunks[n++] as Uint8Array).length;
  return Buffer.concat(chunks.slice(0, n));
}

function counted(read: { bytes: number; reader: BodyReader<unknown> }): BodyReader<unknown> {
  return {
    push(chunk) {
      read.bytes += chunk.length;
      read.reader.push(chunk);
    },
    end: () => read.reader.end(),
  };
}

/** Keeps the chunks as they arrive, for a body that is decoded only once it is complete. */
function collected(read: { bytes: number; chunks: Uint8Array[] | undefined }): BodyReader<undefined> {
  return {
    push(chunk) {
      read.bytes += chunk.length;
      read.chunks?.push(chunk);
    },
    end: () => undefined,
  };
}

/** Sends a POST/PUT whose body is an object of `kind`, encoded as protobuf when `protobuf` is set. */
export function sendObject(
  context: ClientContext,
  request: ApiRequest,
  kind: GroupVersionKind,
  protobuf: boolean,
  control: RequestControl,
): Promise<unknown> {
  return send(context, protobuf ? context.codec.encodeProtobuf(request, kind) : request, control);
}

/** Opens a watch; events are decoded by the response's Content-Type (JSON lines or protobuf frames). */
export function openWatch<T>(
  context: ClientContext,
  request: ApiRequest,
  control: WatchControl,
): WatchStream<T> {
  const options = callOptions(control);
  return context.transport.watch<T>(
    request,
    context.watchFrameDecoder === undefined
      ? options
      : { ...options, protobufFrameDecoder: context.watchFrameDecoder },
  );
}
