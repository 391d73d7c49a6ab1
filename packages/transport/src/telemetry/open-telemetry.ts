/**
 * `@opentelemetry/api`, an optional peer dependency: loaded on first use with a synchronous require
 * (the API package ships CommonJS, and a `require` made by `createRequire` is left alone by bundlers,
 * so a bundle neither carries nor needs it) and cached, found or not. "First use" waits until an
 * application has registered something with the API; absent, tracing then costs one failed lookup
 * per process. The API keeps its tracer provider in a global, so this copy sees the one the
 * application registered. Only the few members used here are typed, so the published declarations do
 * not depend on the package.
 */
// Aliased: bundles often start with a banner `import { createRequire } from "node:module"` of their
// own (for CommonJS dependencies), and a second top-level binding of that name would not compile.
import { createRequire as createModuleRequire } from "node:module";

export interface OtelSpanContext {
  readonly traceId: string;
  readonly spanId: string;
}

export interface OtelSpan {
  setAttribute(key: string, value: string | number | boolean): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: Error | string): unknown;
  spanContext(): OtelSpanContext;
  end(): void;
}

export interface OtelContext {
  readonly __otelContext?: never;
}

export interface OtelTracer {
  startSpan(
    name: string,
    options?: { kind?: number; attributes?: Record<string, string | number | boolean> },
    context?: OtelContext,
  ): OtelSpan;
}

/** The parts of `@opentelemetry/api` kubesdk uses. */
export interface OtelApi {
  readonly trace: {
    getTracer(name: string, version?: string): OtelTracer;
    setSpan(context: OtelContext, span: OtelSpan): OtelContext;
  };
  readonly context: {
    active(): OtelContext;
    with<R>(context: OtelContext, fn: () => R): R;
  };
  readonly propagation: {
    inject(context: OtelContext, carrier: Record<string, string | string[]>): void;
  };
  readonly SpanKind: { readonly INTERNAL: number; readonly CLIENT: number };
  readonly SpanStatusCode: { readonly ERROR: number };
}

let loaded: { readonly api: OtelApi | undefined } | undefined;

/**
 * The global under which every copy of `@opentelemetry/api` 1.x keeps what was registered (tracer
 * provider, propagator, context manager). Until it exists the API would only hand out no-op
 * tracers, so loading it is put off: that load was a good part of a process's first request.
 */
const OTEL_GLOBAL = Symbol.for("opentelemetry.js.api.1");

/**
 * The installed `@opentelemetry/api`, or undefined; looked up once something has been registered
 * with it (before that, kubesdk's spans would be no-ops anyway).
 */
export function openTelemetryApi(): OtelApi | undefined {
  if (loaded === undefined) {
    if ((globalThis as Record<symbol, unknown>)[OTEL_GLOBAL] === undefined) return undefined;
    let api: OtelApi | undefined;
    try {
      api = createModuleRequire(import.meta.url)("@opentelemetry/api") as OtelApi;
    } catch {
      api = undefined;
    }
    loaded = { api };
  }
  return loaded.api;
}
