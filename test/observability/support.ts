/**
 * Fixtures of the observability tests: an in-memory OpenTelemetry exporter registered as the global
 * tracer provider (with the W3C trace-context propagator), and a dispatcher factory that records the
 * headers each request carried on the wire.
 */

import type { DispatcherFactory } from "@kubesdk/transport";
import { createDispatcher } from "@kubesdk/transport/internal";
import { propagation, trace } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";

export interface CapturedSpans {
  readonly exporter: InMemorySpanExporter;
  /** Finished spans named `name` whose attributes include `attributes`. */
  find(name: string, attributes?: Record<string, unknown>): ReadableSpan[];
  close(): Promise<void>;
}

/** Registers a global tracer provider exporting to memory; `close()` unregisters it. */
export function captureSpans(): CapturedSpans {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return {
    exporter,
    find: (name, attributes = {}) =>
      exporter
        .getFinishedSpans()
        .filter(
          (s) =>
            s.name === name &&
            Object.entries(attributes).every(([key, value]) => s.attributes[key] === value),
        ),
    async close() {
      await provider.shutdown();
      trace.disable();
      propagation.disable();
    },
  };
}

/** Headers of every request as sent on the wire (lower-cased names). */
export function headerRecorder(): { factory: DispatcherFactory; sent: Record<string, string>[] } {
  const sent: Record<string, string>[] = [];
  const factory: DispatcherFactory = (settings, certificate) =>
    createDispatcher(settings, certificate).compose((dispatch) => (options, handler) => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries((options.headers ?? {}) as Record<string, unknown>))
        headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
      sent.push(headers);
      return dispatch(options, handler);
    });
  return { factory, sent };
}
