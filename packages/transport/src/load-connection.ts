import type { ClusterConnection } from "./connection.js";
import { type InClusterOptions, inClusterConnection, isInCluster } from "./in-cluster.js";
import { KubeconfigError } from "./kubeconfig/errors.js";
import { loadKubeconfig } from "./kubeconfig/kube-config.js";
import type { KubeconfigLocation } from "./kubeconfig/load.js";
import type { KubeconfigOverrides } from "./kubeconfig/resolve.js";
import type { CredentialOptions } from "./kubeconfig/resolve-user.js";

/** Options of {@link loadClusterConnection}. */
export interface LoadConnectionOptions extends KubeconfigLocation, KubeconfigOverrides, CredentialOptions {
  /** In-cluster fallback settings, or false to never fall back. */
  readonly inCluster?: InClusterOptions | false;
}

/**
 * The connection kubectl would use: the kubeconfig (explicit path, KUBECONFIG, ~/.kube/config) with
 * overrides; when no kubeconfig file exists (and no explicit path was given) and the process runs in
 * a pod, the in-cluster service account.
 */
export async function loadClusterConnection(options: LoadConnectionOptions = {}): Promise<ClusterConnection> {
  try {
    const config = await loadKubeconfig(options);
    return await config.resolve(options, options);
  } catch (err) {
    const inCluster =
      options.inCluster === false
        ? undefined
        : { ...(options.env ? { env: options.env } : {}), ...options.inCluster };
    const canFallBack =
      err instanceof KubeconfigError &&
      err.code === "KUBECONFIG_NOT_FOUND" &&
      options.path === undefined &&
      inCluster !== undefined &&
      isInCluster(inCluster);
    if (!canFallBack) throw err;
    return inClusterConnection({
      ...inCluster,
      ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
      ...(options.tokenRecheckIntervalMs !== undefined
        ? { tokenRecheckIntervalMs: options.tokenRecheckIntervalMs }
        : {}),
    });
  }
}
