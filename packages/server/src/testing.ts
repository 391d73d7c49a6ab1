/**
 * `@kubesdk/server/testing`: the embedded server as a fake cluster for one test file, with clients
 * that are closed when it stops.
 *
 *   const cluster = await startTestServer({ seed: [namespace] });
 *   const kube = cluster.client({ namespace: "shop" }); // namespace: "default" when left out
 *   // … test …
 *   await cluster.stop();  // closes every client it made, then the server
 *
 * A separate entry so that `@kubesdk/server` itself does not load the client.
 */
import { Kube, type KubeConnectOptions } from "@kubesdk/client";
import type { KubernetesObject } from "@kubesdk/models";
import { KubeConfig } from "@kubesdk/transport";
import { type RunningServer, type StartOptions, startServer } from "./server.js";

/** A certificate authority for HTTPS endpoints a test serves to the server (admission and conversion webhooks). */
export { type CertificateAuthority, createCertificateAuthority, type IssueOptions } from "./tls.js";

export interface TestServerOptions extends Omit<StartOptions, "seed"> {
  /** Objects stored before the server answers, in order (namespaces before what they hold). */
  readonly seed?: readonly KubernetesObject[];
}

export interface TestServer extends RunningServer {
  /** A client of the server's admin user; closed by `stop()`. */
  client(options?: KubeConnectOptions): Kube;
}

/** Starts an embedded server for tests; `stop()` closes the clients it made, then the server. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const { seed, ...rest } = options;
  const server = await startServer({
    ...rest,
    ...(seed !== undefined ? { seed: seed as unknown as Record<string, unknown>[] } : {}),
  });
  // Certificates are inline in the document, so the directory it is read from does not matter.
  const connection = await KubeConfig.fromYaml(server.kubeconfig, "kubeconfig").resolve();
  const clients = new Set<Kube>();
  const stopServer = server.stop;
  return Object.assign(server, {
    client(clientOptions: KubeConnectOptions = {}): Kube {
      const kube = Kube.fromConnection(connection, clientOptions);
      clients.add(kube);
      return kube;
    },
    async stop(): Promise<void> {
      await Promise.all([...clients].map((kube) => kube.close()));
      clients.clear();
      await stopServer();
    },
  });
}
