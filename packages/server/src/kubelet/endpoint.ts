/**
 * A kubelet API endpoint for the pod runtime, so a real kube-apiserver can proxy pod I/O to it
 * like to a node's kubelet: HTTPS with `GET /containerLogs/{ns}/{pod}/{container}`, and upgrades on
 * `/exec/{ns}/{pod}/{container}`, `/attach/{ns}/{pod}/{container}` and `/portForward/{ns}/{pod}`.
 * Upgrades to `SPDY/3.1` are what the apiserver sends after translating a `v5.channel.k8s.io`
 * WebSocket (and what it passes through for port-forward tunnels); WebSocket upgrades (a client
 * speaking `v4.channel.k8s.io` or `portforward.k8s.io`) are passed through by the apiserver and
 * served by the reference server's own WebSocket handlers. The apiserver has already checked the
 * pod and container; pods are looked up through `lookupPod` (e.g. from the apiserver) first.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { errors, StatusError } from "../api/status.js";
import { serveLog } from "../pods/routes.js";
import { type PodRuntime, PodRuntime as Runtime } from "../pods/runtime.js";
import { podUpgradeHandler } from "../pods/streams.js";
import type { PodRuntimeOptions } from "../pods/types.js";
import { createCertificateAuthority } from "../tls.js";
import { podNetwork } from "./pod-network.js";
import { serveSpdyProcess } from "./spdy-exec.js";
import { serveSpdyPortForward } from "./spdy-port-forward.js";
import { acceptSpdy, EXEC_PROTOCOL, PORT_FORWARD_PROTOCOL, processSetup } from "./spdy-upgrade.js";

const LOGS = /^\/containerLogs\/([^/]+)\/([^/]+)\/([^/]+)$/;
const STREAMS = /^\/(exec|attach)\/([^/]+)\/([^/]+)\/([^/]+)$|^\/(portForward)\/([^/]+)\/([^/]+)$/;
/** Kubelet query names of the exec/attach flags, and their API names. */
const KUBELET_FLAGS = [
  ["input", "stdin"],
  ["output", "stdout"],
  ["error", "stderr"],
] as const;

export interface KubeletEndpointOptions {
  /** The pod hooks (as for `startServer({ pods })`). */
  readonly pods?: PodRuntimeOptions;
  /** Finds a pod the apiserver asked about (the kubelet's view of its pods). */
  readonly lookupPod: (namespace: string, name: string) => Promise<Record<string, unknown> | undefined>;
  /** Default 0 (any free port) on 127.0.0.1. */
  readonly port?: number;
  /**
   * A non-loopback address of this machine to serve pods' HTTP ports on (`exposePodPort`), for the
   * apiserver's `pods/proxy`, which dials the pod's `status.podIP`.
   */
  readonly podAddress?: string;
}

export interface KubeletEndpoint {
  readonly port: number;
  readonly url: string;
  /** The CA of the serving certificate (for --kubelet-certificate-authority). */
  readonly caPem: string;
  readonly runtime: PodRuntime;
  /**
   * Serves a pod's HTTP port (the `http` hook) on `podAddress`, port `port` (0: any free one), and
   * resolves with the port; set the pod's `status.podIP` to `podAddress` for the apiserver to reach it.
   */
  exposePodPort(namespace: string, pod: string, port?: number): Promise<number>;
  close(): Promise<void>;
}

function statusBody(err: unknown): { code: number; body: string } {
  const status =
    err instanceof StatusError
      ? err.status
      : { kind: "Status", apiVersion: "v1", status: "Failure", message: String(err), code: 500 };
  return { code: status.code ?? 500, body: JSON.stringify(status) };
}

export async function startKubeletEndpoint(options: KubeletEndpointOptions): Promise<KubeletEndpoint> {
  const cache = new Map<string, Record<string, unknown>>();
  const runtime = new Runtime(
    { pod: (ns, name) => cache.get(`${ns}/${name}`), now: () => Date.now() },
    options.pods,
  );
  const remember = async (ns: string, name: string) => {
    const pod = await options.lookupPod(ns, name);
    if (pod) cache.set(`${ns}/${name}`, pod);
  };
  const ca = createCertificateAuthority("kubesdk-kubelet-ca");
  const serving = ca.issue({
    commonName: "kubelet",
    ipAddresses: ["127.0.0.1"],
    dnsNames: ["localhost"],
    usage: "server",
  });
  const webSockets = podUpgradeHandler(runtime, { tokens: new Map(), anonymous: "allowed" });
  const kubelet: Kubelet = { runtime, remember, webSockets };
  const server: Server = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    void serveRequest(kubelet, req, res);
  });
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    void upgrade(kubelet, req, socket, head);
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const network = options.podAddress ? podNetwork(runtime, options.podAddress, remember) : undefined;
  return {
    port,
    url: `https://127.0.0.1:${port}`,
    caPem: ca.certPem,
    runtime,
    exposePodPort(namespace, pod, podPort = 0) {
      if (!network) throw new Error("this kubelet endpoint has no podAddress to serve pod ports on");
      return network.expose(namespace, pod, podPort);
    },
    async close() {
      await network?.close();
      await new Promise<void>((resolve) => {
        runtime.closeAll();
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}

/** What both the HTTP handler and the upgrade handler serve with. */
interface Kubelet {
  readonly runtime: PodRuntime;
  /** Fetches the pod from the apiserver into the runtime's cache. */
  readonly remember: (ns: string, name: string) => Promise<void>;
  /** The reference server's WebSocket upgrade handler. */
  readonly webSockets: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
}

async function serveRequest(
  { runtime, remember }: Kubelet,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? "/", "https://kubelet");
  const m = LOGS.exec(url.pathname);
  try {
    if (!m || req.method !== "GET") {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("404 page not found\n");
      return;
    }
    const [ns, pod, container] = [m[1], m[2], m[3]].map((s) => decodeURIComponent(s as string)) as string[];
    await remember(ns as string, pod as string);
    url.searchParams.set("container", container as string);
    serveLog(runtime, req, res, url, ns as string, pod as string);
  } catch (err) {
    const { code, body } = statusBody(err);
    if (!res.headersSent) res.writeHead(code, { "Content-Type": "application/json" }).end(body);
    else res.destroy();
  }
}

async function upgrade(kubelet: Kubelet, req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
  const { runtime, remember, webSockets } = kubelet;
  const url = new URL(req.url ?? "/", "https://kubelet");
  const m = STREAMS.exec(url.pathname);
  try {
    if (!m) throw errors.notFoundPath();
    const sub = (m[1] ?? "portforward").toLowerCase() as "exec" | "attach" | "portforward";
    const [ns, pod, container] = (sub === "portforward" ? [m[6], m[7], undefined] : [m[2], m[3], m[4]]).map(
      (s) => (s === undefined ? undefined : decodeURIComponent(s)),
    ) as [string, string, string | undefined];
    await remember(ns, pod);
    const q = url.searchParams;
    if ((req.headers.upgrade ?? "").toLowerCase() === "websocket") {
      // Served by the reference server's WebSocket handlers under the API path.
      if (container !== undefined) q.set("container", container);
      for (const [kubelet, api] of KUBELET_FLAGS) if (q.has(kubelet)) q.set(api, q.get(kubelet) as string);
      for (const p of q.getAll("port")) q.append("ports", p);
      req.url = `/api/v1/namespaces/${encodeURIComponent(ns)}/pods/${encodeURIComponent(pod)}/${sub}?${q}`;
      webSockets(req, socket, head);
      return;
    }
    if (sub === "portforward") {
      serveSpdyPortForward(runtime, acceptSpdy(req, socket, head, PORT_FORWARD_PROTOCOL), {
        namespace: ns,
        pod,
      });
      return;
    }
    const setup = processSetup(runtime, sub, ns, pod, container ?? null, q, true);
    serveSpdyProcess(runtime, acceptSpdy(req, socket, head, EXEC_PROTOCOL), setup);
  } catch (err) {
    const { code, body } = statusBody(err);
    socket.end(
      `HTTP/1.1 ${code} Error\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
}
