/**
 * Pod ports on a routable address, for a real kube-apiserver's `pods/proxy`: it dials
 * `status.podIP:port` and refuses loopback and link-local addresses, so the kubelet endpoint can
 * serve a pod's HTTP port (the runtime's `http` hook, or its echo server) on an address of this
 * machine that the pod's `status.podIP` then names. One listener per exposed port: pods share the
 * address, so a port number belongs to one pod at a time.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { StatusError } from "../api/status.js";
import { servePodHttp } from "../pods/pod-http.js";
import type { PodRuntime } from "../pods/runtime.js";

export interface PodNetwork {
  /** The address pods' ports are served on (what their `status.podIP` should be). */
  readonly address: string;
  /** Serves the pod's `port` (0: any free one) on the address; resolves with the port. */
  expose(namespace: string, pod: string, port?: number): Promise<number>;
  close(): Promise<void>;
}

export function podNetwork(
  runtime: PodRuntime,
  address: string,
  remember: (namespace: string, pod: string) => Promise<void>,
): PodNetwork {
  const servers = new Set<Server>();
  return {
    address,
    async expose(namespace, pod, port = 0) {
      let bound = port;
      const server = createServer((req, res) => {
        remember(namespace, pod)
          .then(() => {
            const object = runtime.pod(namespace, pod);
            servePodHttp(runtime, { namespace, pod, object }, bound, req, res, req.url ?? "/");
          })
          .catch((err: unknown) => {
            const code = err instanceof StatusError ? (err.status.code ?? 500) : 500;
            if (!res.headersSent) res.writeHead(code, { "Content-Type": "text/plain" });
            res.end(err instanceof Error ? err.message : String(err));
          });
      });
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, address, resolve);
      });
      bound = (server.address() as AddressInfo).port;
      servers.add(server);
      return bound;
    },
    async close() {
      await Promise.all(
        [...servers].map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      );
      servers.clear();
    },
  };
}
