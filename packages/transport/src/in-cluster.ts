import { readFile } from "node:fs/promises";
import path from "node:path";
import { TokenFileAuth } from "./auth/token-file.js";
import type { ClusterConnection } from "./connection.js";
import { KubesdkError } from "./errors/base.js";

/** Where a pod's service account files are mounted. */
export const DEFAULT_SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";

/** Options of {@link inClusterConnection}; the defaults are the real pod environment. */
export interface InClusterOptions {
  /** Directory holding `token`, `ca.crt` and `namespace` (default `/var/run/secrets/kubernetes.io/serviceaccount`). */
  readonly serviceAccountDir?: string;
  /** Environment with KUBERNETES_SERVICE_HOST / _PORT (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Namespace override; else the `namespace` file, else "default". */
  readonly namespace?: string;
  /** Minimum ms between stat checks of the rotating token (default 1000). */
  readonly tokenRecheckIntervalMs?: number;
}

/** The process is not running in a pod (the service host/port variables are unset). */
export class NotInClusterError extends KubesdkError {
  readonly code = "NOT_IN_CLUSTER" as const;
}

/** True when the Kubernetes service variables are set, i.e. an in-cluster connection is possible. */
export function isInCluster(options: InClusterOptions = {}): boolean {
  const env = options.env ?? process.env;
  return Boolean(env.KUBERNETES_SERVICE_HOST) && Boolean(env.KUBERNETES_SERVICE_PORT);
}

/**
 * Connection from inside a pod: the API service address from the environment, the service account
 * token (re-read as kubelet rotates it), its CA and namespace.
 */
export async function inClusterConnection(options: InClusterOptions = {}): Promise<ClusterConnection> {
  const env = options.env ?? process.env;
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) {
    throw new NotInClusterError(
      "not running in a cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set",
    );
  }
  const dir = options.serviceAccountDir ?? DEFAULT_SERVICE_ACCOUNT_DIR;
  const auth = new TokenFileAuth(path.join(dir, "token"), {
    ...(options.tokenRecheckIntervalMs !== undefined
      ? { recheckIntervalMs: options.tokenRecheckIntervalMs }
      : {}),
  });
  await auth.credentials(); // fail now, not on the first request, when the token is missing
  // A missing ca.crt leaves the system roots in charge, as client-go does; TLS then fails loudly if wrong.
  const ca = await readOptional(path.join(dir, "ca.crt"));
  const namespace =
    options.namespace ?? (await readOptional(path.join(dir, "namespace")))?.toString("utf8").trim();
  const hostPart = host.includes(":") ? `[${host}]` : host;
  return {
    server: `https://${hostPart}:${port}`,
    namespace: namespace || "default",
    tls: { rejectUnauthorized: true, ...(ca !== undefined ? { ca } : {}) },
    auth,
    disableCompression: false,
    source: { kind: "in-cluster", serviceAccountDir: dir },
  };
}

async function readOptional(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}
