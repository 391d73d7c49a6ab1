/**
 * Client request metrics under client-go's REST client names, as a transport interceptor: request
 * latency by verb and host, requests by status code, retries, and requests in flight, registered on
 * the prom-client registry the caller passes (a Manager's, or the application's own).
 *
 *   const registry = new Registry();
 *   const kube = await Kube.fromKubeconfig({ transport: { interceptors: [clientRequestMetrics(registry)] } });
 */
import type { RequestInterceptor } from "@kubesdk/transport";
import { Counter, Gauge, Histogram, type Registry } from "prom-client";

// client-go's buckets for rest_client_request_duration_seconds.
const LATENCY_BUCKETS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];

/**
 * An interceptor that records every try of the transport's requests in `registry`:
 * `rest_client_request_duration_seconds{verb,host}` (until the response headers; a watch counts its
 * connect), `rest_client_requests_total{code,method,host}` ("<error>" when no response came),
 * `rest_client_request_retries_total{verb,host}` (tries after the first) and
 * `rest_client_requests_in_flight{verb,host}`. Use one per registry: registering twice on the same
 * registry throws prom-client's duplicate-name error.
 */
export function clientRequestMetrics(registry: Registry): RequestInterceptor {
  const registers = [registry];
  const latency = new Histogram({
    name: "rest_client_request_duration_seconds",
    help: "Request latency in seconds, by verb and host",
    labelNames: ["verb", "host"],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const requests = new Counter({
    name: "rest_client_requests_total",
    help: "HTTP requests, by status code, method and host",
    labelNames: ["code", "method", "host"],
    registers,
  });
  const retries = new Counter({
    name: "rest_client_request_retries_total",
    help: "Tries after the first of a request (retries and resends after a credential refresh), by verb and host",
    labelNames: ["verb", "host"],
    registers,
  });
  const inFlight = new Gauge({
    name: "rest_client_requests_in_flight",
    help: "Requests sent whose response headers have not arrived, by verb and host",
    labelNames: ["verb", "host"],
    registers,
  });
  return {
    onRequest(request) {
      const labels = { verb: request.method, host: request.host };
      if (request.attempt > 1) retries.inc(labels);
      inFlight.inc(labels);
    },
    onResponse(outcome) {
      const { method, host } = outcome.request;
      inFlight.dec({ verb: method, host });
      latency.observe({ verb: method, host }, outcome.durationMs / 1000);
      requests.inc({ code: outcome.status === undefined ? "<error>" : String(outcome.status), method, host });
    },
  };
}
