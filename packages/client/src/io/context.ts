import type { GroupVersionKind } from "@kubesdk/models";
import type {
  ApiRequest,
  BodyReader,
  CallOptions,
  HttpResponse,
  HttpTransport,
  WatchStreamOptions as TransportWatchOptions,
  WatchFrameDecoder,
  WatchStream,
} from "@kubesdk/transport";
import type { BodyCodec } from "./body-codec.js";
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

/**
 * Sends a request and decodes the body by its Content-Type; Warning headers go to `onWarning`. A
 * GET's body is decoded as it arrives where the codec can (protobuf), and `streamed` then hears its
 * size, unless `peek` is given: then the body is collected whole and `peek` sees it before it is
 * decoded.
 */
export async function send(
  context: ClientContext,
  request: ApiRequest,
  control: RequestControl,
  /** Sees the body collected whole before it is decoded; decoding waits for the promise it may return. */
  peek?: (response: HttpResponse<Uint8Array>) => Promise<void> | undefined,
  streamed?: (bodyBytes: number) => void,
): Promise<unknown> {
  let read: { bytes: number } | undefined;
  const response =
    request.method === "GET" && peek === undefined
      ? await context.transport.requestRead(request, callOptions(control), (headers) => {
          // Each try chooses anew: a retried request may come back in the other encoding.
          const reader = context.codec.readerFor(headers);
          read = reader === undefined ? undefined : { bytes: 0 };
          return reader === undefined || read === undefined ? undefined : counted(reader, read);
        })
      : await context.transport.request(request, callOptions(control));
  if (read === undefined) {
    const peeked = peek?.(response as HttpResponse<Uint8Array>);
    if (peeked !== undefined) await peeked;
  } else streamed?.(read.bytes);
  if (context.onWarning !== undefined) {
    for (const text of parseWarnings(response.headers.warning)) {
      context.onWarning({ text, method: request.method, path: request.path });
    }
  }
  return read === undefined ? context.codec.decode(response as HttpResponse<Uint8Array>) : response.body;
}

function counted(reader: BodyReader<unknown>, read: { bytes: number }): BodyReader<unknown> {
  return {
    push(chunk) {
      read.bytes += chunk.length;
      reader.push(chunk);
    },
    end: () => reader.end(),
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
