/**
 * An HTTPS metrics.k8s.io/v1beta1 server for the pod runtime, as metrics-server is one: a real
 * kube-apiserver aggregates it through an APIService backed by a Service whose endpoint is this
 * server (with `--enable-aggregator-routing=true` the aggregator dials the endpoint's address, which
 * must not be loopback). It answers the same documents as the reference server's metrics routes and
 * asks for no client credentials (the aggregator has already authenticated and authorized the user).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { errors } from "../api/status.js";
import {
  type MetricsSource,
  metricsAnswer,
  metricsError,
  metricsGroup,
  metricsTarget,
} from "../pods/metrics.js";
import type { PodRuntime } from "../pods/runtime.js";
import { createCertificateAuthority } from "../tls.js";

export interface MetricsEndpointOptions {
  /** The usage set on pods and nodes. */
  readonly runtime: PodRuntime;
  /** The pods and nodes to report. */
  readonly source: MetricsSource;
  /** The address to listen on (an endpoint address the aggregator may dial). */
  readonly host: string;
  /** Names the serving certificate carries besides `host`, e.g. `<service>.<namespace>.svc`. */
  readonly dnsNames?: readonly string[];
  /** Default 0 (any free port). */
  readonly port?: number;
}

export interface MetricsEndpoint {
  readonly port: number;
  readonly url: string;
  /** The CA of the serving certificate (an APIService's `caBundle`). */
  readonly caPem: string;
  close(): Promise<void>;
}

export async function startMetricsEndpoint(options: MetricsEndpointOptions): Promise<MetricsEndpoint> {
  const ca = createCertificateAuthority("kubesdk-metrics-ca");
  const serving = ca.issue({
    commonName: "metrics",
    ipAddresses: [options.host],
    dnsNames: [...(options.dnsNames ?? [])],
    usage: "server",
  });
  const server: Server = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    void serve(options, req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    port,
    url: `https://${host}:${port}`,
    caPem: ca.certPem,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function serve(options: MetricsEndpointOptions, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? "/", "https://metrics");
  try {
    let body: unknown;
    if (url.pathname === "/healthz" || url.pathname === "/readyz" || url.pathname === "/livez") {
      res.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
      return;
    }
    if (req.method !== "GET") throw errors.notFoundPath();
    if (url.pathname === "/apis" || url.pathname === "/apis/")
      body = { kind: "APIGroupList", apiVersion: "v1", groups: [metricsGroup()] };
    else {
      const target = metricsTarget(url.pathname);
      if (target === undefined) throw errors.notFoundPath();
      body = await metricsAnswer(options.runtime, options.source, target, url.searchParams, Date.now());
    }
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(body));
  } catch (err) {
    const { code, body } = metricsError(err);
    res.writeHead(code, { "Content-Type": "application/json" }).end(JSON.stringify(body));
  }
}
