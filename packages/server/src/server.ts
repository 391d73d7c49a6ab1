/**
 * startServer: the reference API server in this process. HTTPS with a CA and
 * serving certificate made at start (or given), static tokens, optional
 * client-certificate auth, and a kubeconfig for kubectl and our own clients.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import {
  bootstrap,
  bootstrapDefaultServiceCidr,
  bootstrapKubernetesService,
  bootstrapSystemConfigMaps,
  bootstrapSystemPriorityClasses,
} from "./bootstrap.js";
import { useRuleWorkers } from "./cel/index.js";
import {
  type ClusterOptions,
  PodBehaviours,
  type SimulatedCluster,
  type SimulatedNodes,
  startCluster,
} from "./cluster/index.js";
import { CrdController } from "./controllers/crd-controller.js";
import { type Controllers, startControllers } from "./controllers/index.js";
import { coreSubresourceRoutes } from "./endpoints/core-subresources.js";
import { createDispatcher, type RouteExtension } from "./endpoints/dispatch.js";
import { DEFAULT_SETTINGS, type HandlerContext, type ServerSettings } from "./endpoints/handlers/context.js";
import { openApiRoute } from "./endpoints/openapi-route.js";
import { serviceAccountTokenRoute } from "./endpoints/serviceaccount-token.js";
import { faultApiRoute } from "./faults/fault-api.js";
import { FaultController } from "./faults/fault-controller.js";
import { type AnonymousPolicy, type AuthSettings, allows, type UserInfo } from "./http/auth.js";
import { closeTransport, createTransport, listen, type Transport } from "./http/transport.js";
import { renderKubeconfig } from "./kubeconfig.js";
import { metricsRoutes } from "./pods/metrics-routes.js";
import { podApiRoute } from "./pods/pod-api.js";
import { podProxyRoutes } from "./pods/pod-http.js";
import { podRoutes } from "./pods/routes.js";
import { PodRuntime } from "./pods/runtime.js";
import { serviceProxyRoutes } from "./pods/service-proxy.js";
import { admitPodStream } from "./pods/stream-request.js";
import { podUpgradeHandler } from "./pods/streams.js";
import type { PodRuntimeOptions } from "./pods/types.js";
import { builtinResourceTable } from "./registry/index.js";
import type { ResourceTable } from "./resources/table.js";
import { DEFAULT_HISTORY, type HistoryWindow, MvccStore } from "./storage/mvcc.js";
import type { KeyPair } from "./tls.js";
import type { OpenWatch, WatchRegistry, WatchSettings } from "./watch/serve-watch.js";
import { WatchHub } from "./watch/watch-hub.js";

export interface StartOptions {
  /** 0 (default) picks a free port. */
  readonly port?: number;
  readonly host?: string;
  /** Serve plain HTTP instead of HTTPS (tests of transports only; kubectl wants TLS). */
  readonly insecureHttp?: boolean;
  /** The admin bearer token (default: random). */
  readonly token?: string;
  /** More tokens: token → user. */
  readonly tokens?: Readonly<Record<string, UserInfo>>;
  /**
   * Requests without credentials: "forbidden" (default, like kube-apiserver: system:anonymous, 403 but
   * for /version and health), "allowed" (full access), "unauthorized" (401, like --anonymous-auth=false).
   */
  readonly anonymous?: AnonymousPolicy;
  readonly history?: Partial<HistoryWindow>;
  readonly settings?: Partial<ServerSettings>;
  readonly watch?: Partial<WatchSettings>;
  /** Serve the fault controls over HTTP at /_kubesdk/faults/* (off by default). */
  readonly faultApi?: boolean;
  /** Serve the simulated containers' controls (log lines, stop, restart) at /_kubesdk/pods/* (off by default). */
  readonly podApi?: boolean;
  /** Seed of the fault controls' PRNG (default 1). */
  readonly faultSeed?: number;
  /** Objects created at start, in order (namespaces first if they hold the others). */
  readonly seed?: readonly Record<string, unknown>[];
  /** Write the kubeconfig to this path. */
  readonly kubeconfigPath?: string;
  /** One line per request. */
  readonly log?: (line: string) => void;
  /** Extra routes tried before the API (used by watch, openapi and fault controls). */
  readonly extensions?: readonly RouteExtension[];
  /** Hooks of the pod simulation (logs, exec, attach, port-forward); defaults to an echo shell. */
  readonly pods?: PodRuntimeOptions;
  /**
   * Run the in-process stand-ins for kube-controller-manager's garbage collector, namespace,
   * resource quota, ServiceAccount and root CA publisher controllers (default true). Off when a real
   * kube-controller-manager does that work.
   */
  readonly controllers?: boolean;
  /**
   * The simulated cluster (default on, one node): kubelets that register nodes, renew their Leases
   * and run the pods bound to them (Pending → Running → Ready → Succeeded/Failed, graceful
   * termination), and, unless `controllers: false`, a scheduler, node lifecycle and the ReplicaSet,
   * Deployment, Job, StatefulSet and DaemonSet controllers. `false`: pods stay Pending, as on a
   * kube-apiserver with nothing else running.
   */
  readonly cluster?: false | ClusterOptions;
}

export interface RunningServer {
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** PEM of the CA that signed the serving certificate (undefined over plain HTTP). */
  readonly ca: string | undefined;
  readonly token: string;
  readonly kubeconfig: string;
  readonly store: MvccStore;
  readonly resources: ResourceTable;
  readonly context: HandlerContext;
  readonly watches: WatchRegistry;
  /** Fault injection: drop/stall/tear watches, fail requests, compact, restart. */
  readonly faults: FaultController;
  /** The pod simulation: append logs, stop or restart containers, read their files, set behaviours. */
  readonly pods: PodRuntime;
  /** The simulated nodes: add one, lose one, bring it back (undefined with `cluster: false`). */
  readonly nodes: SimulatedNodes | undefined;
  /** A client certificate for `user` in `groups`, signed by the server's CA. */
  issueClientCertificate(user: string, groups?: readonly string[]): KeyPair;
  stop(): Promise<void>;
}

/** The in-process state a server serves: store, resources, CRD controller, watches, fault controls. */
interface ServerState {
  readonly context: HandlerContext;
  readonly crds: CrdController;
  readonly watch: WatchRegistry;
  readonly faults: FaultController;
  readonly behaviours: PodBehaviours;
  readonly cluster: SimulatedCluster | undefined;
  /** Ends the CEL rule workers when the last server of the process stops. */
  readonly releaseRuleWorkers: () => void;
}

async function createState(options: StartOptions, auth: AuthSettings): Promise<ServerState> {
  const store = new MvccStore({ ...DEFAULT_HISTORY, ...options.history });
  const context: HandlerContext = {
    store,
    resources: builtinResourceTable(),
    settings: { ...DEFAULT_SETTINGS, ...options.settings },
    now: Date.now,
    authenticateToken: (token) => auth.tokens.get(token),
    authorizes: (user, access) => allows(user, auth, access),
  };
  const watch: WatchRegistry = {
    hub: new WatchHub(store),
    settings: { bookmarkIntervalMs: 60_000, maxBufferedBytes: 8 * 1024 * 1024, ...options.watch },
    streams: new Set<OpenWatch>(),
  };
  const crds = new CrdController(context, {
    // Upstream tears down a deleted or changed CRD's storage, which ends the watches on its resources.
    onRemoved: (name) => {
      for (const w of [...watch.streams]) if (w.resource.custom?.crdName === name) w.stream.end("dropped");
    },
  });
  bootstrapSystemPriorityClasses(context);
  const seedErrors = await bootstrap(context, options.seed ?? []);
  if (seedErrors.length > 0) throw new Error(`seed objects rejected:\n${seedErrors.join("\n")}`);
  const faults = new FaultController(store, watch, options.faultSeed ?? 1, options.log);
  watch.onOpen = (w, path) => faults.onWatchOpened(w, path);
  const clusterOptions = options.cluster === false ? undefined : (options.cluster ?? {});
  const behaviours = new PodBehaviours(clusterOptions?.stages, options.pods?.behaviour);
  const cluster =
    clusterOptions &&
    startCluster(context, clusterOptions, behaviours, options.controllers !== false, options.log);
  return { context, crds, watch, faults, behaviours, cluster, releaseRuleWorkers: useRuleWorkers() };
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const token = options.token ?? randomBytes(24).toString("base64url");
  const tokens = new Map<string, UserInfo>(Object.entries(options.tokens ?? {}));
  tokens.set(token, { name: "kubesdk-admin", groups: ["system:masters", "system:authenticated"] });
  const auth = { tokens, anonymous: options.anonymous ?? "forbidden" } as const;
  const state = await createState(options, auth);
  const { context, watch, faults } = state;
  // Pod I/O: pods/log and pods/eviction routes; exec/attach/portforward upgrades on the transport.
  const pods = new PodRuntime(context, options.pods, state.behaviours);
  const extensions = [
    podRoutes(pods, context, auth),
    podProxyRoutes(pods, context, auth),
    serviceProxyRoutes(pods, context, auth),
    metricsRoutes(pods, context, auth),
    coreSubresourceRoutes(context, auth),
    serviceAccountTokenRoute(context, auth, tokens),
    ...(options.faultApi ? [faultApiRoute(faults)] : []),
    ...(options.podApi ? [podApiRoute(pods)] : []),
    openApiRoute(context.resources),
    ...(options.extensions ?? []),
  ];
  let address = "";
  const dispatcher = createDispatcher({
    ctx: context,
    auth,
    serverAddress: () => address,
    watch,
    ...(options.log ? { log: options.log } : {}),
    faults,
    extensions,
  });
  const transport = createTransport(options.insecureHttp === true, host, dispatcher);
  const { ca } = transport;
  bootstrapSystemConfigMaps(context, ca?.certPem);
  // Started once the CA exists: the root CA publisher gives it to every namespace.
  const controllers =
    options.controllers === false ? undefined : startControllers(context, { rootCaPem: ca?.certPem });
  transport.server.on(
    "upgrade",
    podUpgradeHandler(pods, auth, (req) => admitPodStream(context, auth, req)),
  );
  const port = await listen(transport, options.port ?? 0, host);
  address = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  bootstrapKubernetesService(context, port);
  bootstrapDefaultServiceCidr(context);
  const url = `${options.insecureHttp ? "http" : "https"}://${address}`;
  // Rendered when first read: YAML rendering is a good part of a start, and most tests never read it.
  let kubeconfig: string | undefined;
  const renderedKubeconfig = () =>
    (kubeconfig ??= renderKubeconfig({ url, ...(ca ? { caPem: ca.certPem } : {}), token }));
  if (options.kubeconfigPath) {
    mkdirSync(dirname(options.kubeconfigPath), { recursive: true });
    writeFileSync(options.kubeconfigPath, renderedKubeconfig(), { mode: 0o600 });
  }
  return {
    url,
    host,
    port,
    ca: ca?.certPem,
    token,
    get kubeconfig() {
      return renderedKubeconfig();
    },
    store: context.store,
    resources: context.resources,
    context,
    watches: watch,
    faults,
    pods,
    nodes: state.cluster?.nodes,
    issueClientCertificate(user, groups = []) {
      if (!ca) throw new Error("client certificates need the HTTPS server");
      return ca.issue({ commonName: user, organizations: groups, usage: "client" });
    },
    stop: () => {
      pods.closeAll();
      return stopServer(transport, state, controllers);
    },
  };
}

function stopServer(
  transport: Transport,
  state: ServerState,
  controllers: Controllers | undefined,
): Promise<void> {
  state.crds.close();
  state.releaseRuleWorkers();
  controllers?.close();
  state.cluster?.close();
  for (const w of [...state.watch.streams]) w.stream.end("server-stopped");
  state.watch.hub.close();
  return closeTransport(transport);
}
