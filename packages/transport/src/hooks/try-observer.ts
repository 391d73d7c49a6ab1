/**
 * What the transport does around each try of a request: the interceptors' hooks and the try's
 * span. Built once per transport; with no interceptors and no `@opentelemetry/api` it stays out of
 * the way (`active` is false and the transport skips it).
 */
import type { HttpRequestParts } from "../http/request.js";
import type { ResponseHeaders } from "../http/response.js";
import {
  type ActiveSpan,
  kubesdkTracer,
  type SpanAttributes,
  startRequestSpan,
} from "../telemetry/tracing.js";
import type { OutgoingRequest, RequestInterceptor, RequestOutcome } from "./interceptor.js";

/** One try under observation: the parts to send (hooks may have changed the headers) and its end. */
export interface ObservedTry {
  readonly parts: HttpRequestParts;
  end(result: TryResult): Promise<void>;
}

/** A try's response status and headers, or its failure. */
export interface TryResult {
  readonly status?: number;
  readonly headers?: ResponseHeaders;
  readonly error?: unknown;
}

export class TryObserver {
  readonly #interceptors: readonly RequestInterceptor[];
  readonly #tracing: boolean;
  readonly #server: URL;

  constructor(interceptors: readonly RequestInterceptor[], tracing: boolean, server: URL) {
    this.#interceptors = interceptors;
    this.#tracing = tracing;
    this.#server = server;
  }

  /** Whether spans are made (tracing on and `@opentelemetry/api` installed). */
  get tracing(): boolean {
    return this.#tracing && kubesdkTracer() !== undefined;
  }

  /** Whether there is anything to run around a try. */
  get active(): boolean {
    return this.#interceptors.length > 0 || this.tracing;
  }

  async begin(parts: HttpRequestParts, attempt: number): Promise<ObservedTry> {
    const headers = { ...parts.headers };
    const request: OutgoingRequest = {
      method: parts.method,
      path: parts.path,
      host: this.#server.host,
      headers,
      attempt,
    };
    const started = performance.now();
    const unwind = async (ran: number, result: TryResult) => {
      const outcome: RequestOutcome = { request, durationMs: performance.now() - started, ...result };
      for (let i = ran - 1; i >= 0; i--) await this.#interceptors[i]?.onResponse?.(outcome);
    };
    let ran = 0;
    try {
      for (const interceptor of this.#interceptors) {
        ran++;
        await interceptor.onRequest?.(request);
      }
    } catch (error) {
      // The interceptors that saw the request go out also see it end (an in-flight count stays right).
      await unwind(ran - 1, { error });
      throw error;
    }
    const span = this.#tracing
      ? startRequestSpan(parts.method, this.#attributes(parts, attempt), headers)
      : undefined;
    return {
      parts: { ...parts, headers },
      end: async (result) => {
        if (span !== undefined) endSpan(span, result);
        await unwind(this.#interceptors.length, result);
      },
    };
  }

  // OpenTelemetry's HTTP client conventions.
  #attributes(parts: HttpRequestParts, attempt: number): SpanAttributes {
    const url = this.#server;
    const attributes: SpanAttributes = {
      "http.request.method": parts.method,
      "server.address": url.hostname,
      "server.port": Number(url.port || (url.protocol === "https:" ? 443 : 80)),
      "url.full": `${url.origin}${parts.path}`,
    };
    if (attempt > 1) attributes["http.request.resend_count"] = attempt - 1;
    return attributes;
  }
}

function endSpan(span: ActiveSpan, outcome: TryResult): void {
  if (outcome.status === undefined) {
    span.end(outcome.error ?? new Error("no response"));
    return;
  }
  span.set("http.response.status_code", outcome.status);
  span.end(outcome.status >= 400 ? new HttpStatusError(outcome.status) : undefined);
}

/** Names a failed status in a span (`error.type` is the status code, as the conventions ask). */
class HttpStatusError extends Error {
  readonly code: string;
  constructor(status: number) {
    super(`HTTP ${status}`);
    this.name = "HttpStatusError";
    this.code = String(status);
  }
}
