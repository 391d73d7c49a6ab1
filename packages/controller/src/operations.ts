/**
 * The operations endpoint: `/healthz` (200 while the manager runs), `/readyz` (200 once every
 * informer has synced; the body tells the leader state) and `/metrics` (Prometheus text format).
 * Anything else is 404. Listens on 127.0.0.1 unless told otherwise.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Manager } from "./manager.js";
import type { PrometheusMetrics } from "./metrics.js";

export interface OperationsServer {
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

export async function serveOperations(
  manager: Manager,
  options: { readonly port?: number; readonly host?: string; readonly metrics?: PrometheusMetrics } = {},
): Promise<OperationsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    const status = manager.status();
    const text = (code: number, body: string, type = "text/plain; charset=utf-8") => {
      res.writeHead(code, { "content-type": type });
      res.end(body);
    };
    if (path === "/healthz") return text(status.healthy ? 200 : 503, status.healthy ? "ok\n" : "stopped\n");
    if (path === "/readyz")
      return text(status.ready ? 200 : 503, `${JSON.stringify(status)}\n`, "application/json");
    if (path === "/metrics" && options.metrics !== undefined) {
      const registry = options.metrics.registry;
      registry.metrics().then(
        (body) => text(200, body, registry.contentType),
        (err) => text(500, String(err)),
      );
      return;
    }
    text(404, "not found\n");
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
