/**
 * Spans through `@opentelemetry/api` when it is installed (see open-telemetry.ts): one CLIENT span
 * per try of a request, a span per watch, and `traced()` for the informer's lists and the
 * controller's reconciles. Without the package every function here returns at once.
 */
import { VERSION } from "../version.js";
import { type OtelApi, type OtelSpan, type OtelTracer, openTelemetryApi } from "./open-telemetry.js";

/** The instrumentation scope of kubesdk's spans. */
export const TRACER_NAME = "kubesdk";

let cached: { readonly api: OtelApi; readonly tracer: OtelTracer } | undefined;

/** The tracer and API, or undefined without `@opentelemetry/api`. */
export function kubesdkTracer(): { readonly api: OtelApi; readonly tracer: OtelTracer } | undefined {
  if (cached !== undefined) return cached;
  const api = openTelemetryApi();
  if (api === undefined) return undefined;
  cached = { api, tracer: api.trace.getTracer(TRACER_NAME, VERSION) };
  return cached;
}

export type SpanAttributes = Record<string, string | number | boolean>;

/** A span in progress; `end` records the error, if any, and ends it once. */
export interface ActiveSpan {
  set(key: string, value: string | number | boolean): void;
  /** Runs `fn` with this span as the active context (its requests' spans become children). */
  run<R>(fn: () => R): R;
  end(error?: unknown): void;
}

const NO_SPAN: ActiveSpan = { set() {}, run: (fn) => fn(), end() {} };

/** Starts a span (child of the active context); a no-op span without the API. */
export function startSpan(name: string, attributes: SpanAttributes, kind: "client" | "internal"): ActiveSpan {
  const otel = kubesdkTracer();
  if (otel === undefined) return NO_SPAN;
  const span = otel.tracer.startSpan(name, {
    kind: kind === "client" ? otel.api.SpanKind.CLIENT : otel.api.SpanKind.INTERNAL,
    attributes,
  });
  return activeSpan(otel.api, span);
}

function activeSpan(api: OtelApi, span: OtelSpan): ActiveSpan {
  let ended = false;
  return {
    set(key, value) {
      if (!ended) span.setAttribute(key, value);
    },
    run: (fn) => api.context.with(api.trace.setSpan(api.context.active(), span), fn),
    end(error) {
      if (ended) return;
      ended = true;
      if (error !== undefined) failSpan(api, span, error);
      span.end();
    },
  };
}

function failSpan(api: OtelApi, span: OtelSpan, error: unknown): void {
  const err = error instanceof Error ? error : new Error(String(error));
  span.recordException(err);
  span.setStatus({ code: api.SpanStatusCode.ERROR, message: err.message });
  span.setAttribute("error.type", (err as { code?: unknown }).code?.toString() ?? err.name);
}

/**
 * Runs `fn` inside an INTERNAL span that is the active context for what `fn` does (so its requests'
 * spans are its children where a context manager is registered); the span records what `fn` throws.
 */
export async function traced<T>(name: string, attributes: SpanAttributes, fn: () => Promise<T>): Promise<T> {
  const otel = kubesdkTracer();
  if (otel === undefined) return fn();
  const span = otel.tracer.startSpan(name, { kind: otel.api.SpanKind.INTERNAL, attributes });
  const done = activeSpan(otel.api, span);
  try {
    const result = await done.run(fn);
    done.end();
    return result;
  } catch (error) {
    done.end(error);
    throw error;
  }
}

/**
 * Starts the CLIENT span of one try and adds its trace context to `headers` (W3C `traceparent` with
 * the propagator the application registered), so the API server's own spans join the trace.
 */
export function startRequestSpan(
  name: string,
  attributes: SpanAttributes,
  headers: Record<string, string | string[]>,
): ActiveSpan {
  const otel = kubesdkTracer();
  if (otel === undefined) return NO_SPAN;
  const span = otel.tracer.startSpan(name, { kind: otel.api.SpanKind.CLIENT, attributes });
  otel.api.propagation.inject(otel.api.trace.setSpan(otel.api.context.active(), span), headers);
  return activeSpan(otel.api, span);
}
