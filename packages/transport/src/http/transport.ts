import type { Dispatcher } from "undici";
import type { Credentials } from "../auth/types.js";
import type { ClusterConnection } from "../connection.js";
import type { ProtobufBodyDecoder } from "../errors/protobuf-status.js";
import type { RequestInterceptor } from "../hooks/interceptor.js";
import { TryObserver } from "../hooks/try-observer.js";
import type { WatchFrameDecoder } from "../watch/watch-event.js";
import { BodyReaderFailure, classifiedChunks, flowingBody, readThrough } from "./body-flow.js";
import type { CallOptions } from "./call-options.js";
import { classifyError, type FailureContext } from "./classify-error.js";
import { type DispatcherFactory, DispatcherPool } from "./dispatcher.js";
import { decodeJsonBody } from "./json-body.js";
import {
  type ApiRequest,
  buildHttpRequest,
  type HeaderValues,
  type HttpRequestParts,
  withCredentials,
} from "./request.js";
import { type RequestSignal, requestSignal } from "./request-signal.js";
import {
  apiErrorOf,
  type BodyReader,
  type HttpResponse,
  header,
  type ResponseHeaders,
  releaseBody,
  type StreamResponse,
} from "./response.js";
import { type RetryOptions, resolveRetryOptions, withRetries } from "./retry.js";
import { defaultUserAgent } from "./user-agent.js";
import { openWatch, type WatchStream, type WatchStreamOptions } from "./watch-stream.js";

/** Timeouts in ms; 0 disables one. */
export interface TimeoutOptions {
  /** TCP + TLS connect (default 10 000). */
  readonly connectMs?: number;
  /** Until response headers arrive (default 60 000). */
  readonly requestMs?: number;
  /** Longest pause between body bytes of a normal response (default 60 000). */
  readonly bodyIdleMs?: number;
  /** Longest pause between bytes of a watch before IDLE_TIMEOUT (default 0: off, as quiet watches are normal). */
  readonly watchIdleMs?: number;
}

/** Options of {@link HttpTransport}. */
export interface TransportOptions {
  /** Default `kubesdk/<version> (node <ver>; <os>/<arch>)`. */
  readonly userAgent?: string;
  /** Default: 5 tries, backoff from 250 ms doubling to 10 s with jitter; false disables retries. */
  readonly retries?: Partial<RetryOptions> | false;
  readonly timeouts?: TimeoutOptions;
  /** Headers sent with every request. */
  readonly headers?: HeaderValues;
  /** Largest accepted watch event (default 16 MiB). */
  readonly maxWatchEventBytes?: number;
  /**
   * Decodes protobuf watch frames. None by default: the transport carries no protobuf codec, so a
   * protobuf watch without one fails with UnsupportedWatchContentTypeError (the client sets it
   * from its `protobufCodec`, see docs/guides/protobuf.md).
   */
  readonly protobufWatchFrameDecoder?: WatchFrameDecoder;
  /** Decodes protobuf error bodies (a Status) into their JSON form; none by default, as above. */
  readonly protobufDecoder?: ProtobufBodyDecoder;
  /** Idle keep-alive connections are kept this long (default 30 000 ms). */
  readonly keepAliveTimeoutMs?: number;
  /**
   * Offer HTTP/2 to the server (ALPN); a server that takes it multiplexes every request and watch
   * on fewer connections, one that does not stays on HTTP/1.1. Default false: measured with 50
   * informers against kube-apiserver (`pnpm bench:http2`), undici's pool still opened 100
   * connections over h2 (127 over HTTP/1.1) for the same memory, so it does not pay yet. Not through
   * a proxy.
   */
  readonly http2?: boolean;
  /** Replaces the undici dispatcher construction (custom pools, interception in tests). */
  readonly dispatcherFactory?: DispatcherFactory;
  /**
   * See (and change the headers of) every try of every request: hooks before it goes out and when
   * its response headers arrive or it fails (docs/guides/observability.md has the order).
   */
  readonly interceptors?: readonly RequestInterceptor[];
  /**
   * A CLIENT span per try, and a span per watch, through `@opentelemetry/api` when it is installed
   * (an optional peer dependency; absent, nothing is traced and nothing fails). Default true.
   */
  readonly tracing?: boolean;
}

/** Tries of one call so far (retries and the resend after a credential refresh count). */
interface Attempts {
  count: number;
}

interface Timeouts {
  readonly connectMs: number;
  readonly requestMs: number;
  readonly bodyIdleMs: number;
  readonly watchIdleMs: number;
}

/**
 * HTTP to one API server over a pooled undici dispatcher: builds requests purely, adds credentials,
 * refreshes them once after a 401, retries per policy, and turns failures into typed errors.
 */
export class HttpTransport {
  readonly connection: ClusterConnection;
  readonly #origin: string;
  readonly #basePath: string;
  readonly #userAgent: string;
  readonly #options: TransportOptions;
  readonly #timeouts: Timeouts;
  readonly #retries: RetryOptions | undefined;
  readonly #pool: DispatcherPool;
  readonly #observer: TryObserver;

  constructor(connection: ClusterConnection, options: TransportOptions = {}) {
    this.connection = connection;
    const url = new URL(connection.server);
    this.#origin = url.origin;
    this.#basePath = url.pathname.replace(/\/+$/, "");
    this.#userAgent = options.userAgent ?? defaultUserAgent();
    this.#options = options;
    const t = options.timeouts ?? {};
    this.#timeouts = {
      connectMs: t.connectMs ?? 10_000,
      requestMs: t.requestMs ?? 60_000,
      bodyIdleMs: t.bodyIdleMs ?? 60_000,
      watchIdleMs: t.watchIdleMs ?? 0,
    };
    this.#retries = resolveRetryOptions(options.retries);
    this.#observer = new TryObserver(options.interceptors ?? [], options.tracing !== false, url);
    this.#pool = new DispatcherPool(
      {
        tls: connection.tls,
        connectTimeoutMs: this.#timeouts.connectMs,
        keepAliveTimeoutMs: options.keepAliveTimeoutMs ?? 30_000,
        ...(options.http2 === true ? { http2: true } : {}),
        ...(connection.proxyUrl !== undefined ? { proxyUrl: connection.proxyUrl } : {}),
      },
      options.dispatcherFactory,
    );
  }

  /** Pure: the wire form of a request (without credentials). */
  build(request: ApiRequest): HttpRequestParts {
    return buildHttpRequest(request, {
      basePath: this.#basePath,
      userAgent: this.#userAgent,
      ...(this.connection.impersonation !== undefined
        ? { impersonation: this.connection.impersonation }
        : {}),
      ...(this.#options.headers !== undefined ? { defaultHeaders: this.#options.headers } : {}),
    });
  }

  /** Sends a request and reads the whole body. Failures (≥ 400) throw ApiError after retries. */
  request(request: ApiRequest, options: CallOptions = {}): Promise<HttpResponse<Uint8Array>> {
    return this.requestRead(request, options, noReader) as Promise<HttpResponse<Uint8Array>>;
  }

  /**
   * Like {@link HttpTransport.request | request}, but a successful body that `choose` gives a reader for (by its headers) goes
   * through that reader chunk by chunk as it arrives, and its result is the response's body. Each
   * try gets a fresh reader. What the reader throws ends the call as it is (no retry).
   */
  requestRead<T>(
    request: ApiRequest,
    options: CallOptions,
    choose: (headers: ResponseHeaders) => BodyReader<T> | undefined,
  ): Promise<HttpResponse<Uint8Array | T>> {
    const parts = this.build(request);
    const failure = this.#failureContext(options, this.#timeouts.bodyIdleMs);
    const attempts: Attempts = { count: 0 };
    return withRetries(
      async () => {
        const own = requestSignal(options.signal);
        try {
          const res = await this.#open(parts, withSignal(options, own), failure, attempts);
          const reader = choose(res.headers);
          try {
            const body =
              reader === undefined
                ? new Uint8Array(await res.body.arrayBuffer())
                : await readThrough(res.body, reader);
            return { status: res.statusCode, headers: res.headers, body };
          } catch (err) {
            releaseBody(res.body);
            throw err instanceof BodyReaderFailure ? err.cause : classifyError(err, failure);
          }
        } finally {
          own.release();
        }
      },
      {
        method: parts.method,
        url: this.#origin + parts.path,
        options: this.#retryOptions(options),
        signal: options.signal,
      },
    );
  }

  /** Like {@link HttpTransport.request | request}, decoding the body as JSON (Accept defaults to application/json). */
  async requestJson<T = unknown>(request: ApiRequest, options: CallOptions = {}): Promise<HttpResponse<T>> {
    const res = await this.request(request, options);
    if (res.status === 204) return { ...res, body: undefined as T };
    return { ...res, body: decodeJsonBody(res.body, header(res.headers, "content-type")) as T };
  }

  /** Opens a streamed response (connect is retried per policy); the body is read incrementally. */
  async stream(
    request: ApiRequest,
    options: CallOptions & { idleTimeoutMs?: number } = {},
  ): Promise<StreamResponse> {
    const parts = this.build(request);
    const failure = this.#failureContext(options, options.idleTimeoutMs ?? this.#timeouts.watchIdleMs);
    const attempts: Attempts = { count: 0 };
    const [res, own] = await withRetries(
      async () => {
        const own = requestSignal(options.signal);
        try {
          return [await this.#open(parts, withSignal(options, own), failure, attempts), own] as const;
        } catch (err) {
          own.release();
          throw err;
        }
      },
      {
        method: parts.method,
        url: this.#origin + parts.path,
        options: this.#retryOptions(options),
        signal: options.signal,
      },
    );
    return {
      status: res.statusCode,
      headers: res.headers,
      contentType: header(res.headers, "content-type"),
      body: classifiedChunks(res.body, failure, own),
      flow: (sink) => flowingBody(res.body, failure, own, sink),
      close: () => {
        releaseBody(res.body);
        own.release();
      },
    };
  }

  /**
   * Watches: `watch=true` is added unless the query sets it; events arrive in order, an ERROR event
   * throws its ApiError, and breaking out of the loop, `close()` or the signal closes the connection.
   */
  watch<T = unknown>(request: ApiRequest, options: WatchStreamOptions = {}): WatchStream<T> {
    const query = request.query?.watch === undefined ? { ...request.query, watch: "true" } : request.query;
    return openWatch<T>((signal) => this.stream({ ...request, query }, { ...options, signal }), {
      ...options,
      ...(this.#observer.tracing ? { tracedPath: request.path } : {}),
      decoder: {
        ...((options.protobufFrameDecoder ?? this.#options.protobufWatchFrameDecoder) !== undefined
          ? { protobufFrameDecoder: options.protobufFrameDecoder ?? this.#options.protobufWatchFrameDecoder }
          : {}),
        maxEventBytes: options.maxEventBytes ?? this.#options.maxWatchEventBytes,
      },
    });
  }

  /** Closes every connection, including open watches. */
  close(): Promise<void> {
    return this.#pool.destroy();
  }

  // One try: credentials, send, one credential refresh on 401, failures as ApiError.
  async #open(
    parts: HttpRequestParts,
    options: CallOptions,
    failure: FailureContext,
    attempts: Attempts,
  ): Promise<Dispatcher.ResponseData> {
    const auth = this.connection.auth;
    let credentials = await auth.credentials(options.signal);
    let res = await this.#send(parts, credentials, options, failure, attempts);
    if (res.statusCode === 401 && (await auth.refreshAfterUnauthorized(credentials, options.signal))) {
      // Read the small 401 body to the end so the connection can be reused for the retry.
      await res.body.dump().catch(() => undefined);
      credentials = await auth.credentials(options.signal);
      res = await this.#send(parts, credentials, options, failure, attempts);
    }
    if (res.statusCode >= 400)
      throw await apiErrorOf(
        res,
        { method: parts.method, path: parts.path.split("?")[0] ?? "" },
        this.#options.protobufDecoder,
      );
    return res;
  }

  // One wire send, through the interceptors and the try's span when there are any.
  async #send(
    parts: HttpRequestParts,
    credentials: Credentials,
    options: CallOptions,
    failure: FailureContext,
    attempts: Attempts,
  ): Promise<Dispatcher.ResponseData> {
    attempts.count++;
    if (!this.#observer.active) return this.#dispatch(parts, credentials, options, failure);
    const observed = await this.#observer.begin(parts, attempts.count);
    let res: Dispatcher.ResponseData;
    try {
      res = await this.#dispatch(observed.parts, credentials, options, failure);
    } catch (error) {
      await observed.end({ error });
      throw error;
    }
    try {
      await observed.end({ status: res.statusCode, headers: res.headers });
    } catch (error) {
      releaseBody(res.body);
      throw error;
    }
    return res;
  }

  async #dispatch(
    parts: HttpRequestParts,
    credentials: Credentials,
    options: CallOptions,
    failure: FailureContext,
  ): Promise<Dispatcher.ResponseData> {
    const wire = withCredentials(parts, credentials);
    try {
      return await this.#pool.get(credentials.clientCertificate).request({
        origin: this.#origin,
        path: wire.path,
        method: wire.method,
        headers: wire.headers,
        body: wire.body ?? null,
        signal: options.signal ?? null,
        headersTimeout: failure.headersTimeoutMs,
        bodyTimeout: failure.bodyTimeoutMs,
      });
    } catch (err) {
      throw classifyError(err, failure);
    }
  }

  #failureContext(options: CallOptions, bodyTimeoutMs: number): FailureContext {
    return {
      signal: options.signal,
      headersTimeoutMs: options.timeoutMs ?? this.#timeouts.requestMs,
      bodyTimeoutMs,
    };
  }

  #retryOptions(options: CallOptions): RetryOptions | undefined {
    return options.retries === undefined
      ? this.#retries
      : resolveRetryOptions(options.retries, this.#retries);
  }
}

/** Creates an {@link HttpTransport} for a connection. */
export function createTransport(
  connection: ClusterConnection,
  options: TransportOptions = {},
): HttpTransport {
  return new HttpTransport(connection, options);
}

/** `options` with the request's own signal in place of the caller's. */
function withSignal(options: CallOptions, own: RequestSignal): CallOptions {
  if (own.signal === undefined) return options;
  return { ...options, signal: own.signal };
}

const noReader = (): undefined => undefined;
