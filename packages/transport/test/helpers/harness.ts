import { afterEach } from "vitest";
import {
  type ClusterConnection,
  createTransport,
  type HttpTransport,
  NoAuth,
  type TransportOptions,
} from "../../src/index.js";
import { type Handler, startTestServer, type TestServer } from "./test-server.js";

/** A hand-built connection to a test server (no kubeconfig involved). */
export function connectionTo(server: string, overrides: Partial<ClusterConnection> = {}): ClusterConnection {
  return {
    server,
    namespace: "default",
    tls: { rejectUnauthorized: true },
    auth: new NoAuth(),
    disableCompression: false,
    source: { kind: "custom" },
    ...overrides,
  };
}

/** Retries with tiny delays, so retry tests do not wait on backoff. */
export const FAST_RETRIES = { attempts: 3, minDelayMs: 1, maxDelayMs: 5 };

/** Servers and transports that are closed after each test of the calling file. */
export function useHarness() {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return {
    defer(cleanup: () => unknown): void {
      cleanups.push(cleanup);
    },
    async serve(handler: Handler, tls?: Parameters<typeof startTestServer>[1]): Promise<TestServer> {
      const server = await startTestServer(handler, tls);
      cleanups.push(() => server.close());
      return server;
    },
    transport(target: string | ClusterConnection, options: TransportOptions = {}): HttpTransport {
      const connection = typeof target === "string" ? connectionTo(target) : target;
      const transport = createTransport(connection, { retries: FAST_RETRIES, ...options });
      cleanups.push(() => transport.close());
      return transport;
    },
  };
}
