import type { ClusterConnection } from "../connection.js";
import { KubeconfigError } from "./errors.js";
import type { MergedKubeconfig } from "./merge.js";
import type { ContextEntry } from "./model.js";
import { entryError } from "./references.js";
import { resolveCluster } from "./resolve-cluster.js";
import { type CredentialOptions, resolveUser } from "./resolve-user.js";

/** Command-line style overrides (kubectl --context, --cluster, --user, --namespace). */
export interface KubeconfigOverrides {
  readonly context?: string;
  readonly cluster?: string;
  readonly user?: string;
  readonly namespace?: string;
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** Picks context, cluster and user (overrides first) and builds the connection. */
export async function resolveConnection(
  config: MergedKubeconfig,
  overrides: KubeconfigOverrides = {},
  options: CredentialOptions = {},
): Promise<ClusterConnection> {
  const files = config.files.join(", ");
  const context = selectContext(config, overrides);

  const clusterName = overrides.cluster ?? context?.cluster;
  if (clusterName === undefined) {
    if (context === undefined)
      throw new KubeconfigError("KUBECONFIG_NO_CONTEXT", `no cluster selected in ${files}`);
    throw entryError("KUBECONFIG_INVALID", "contexts", context.origin, "cluster", "is required");
  }
  const clusterEntry = config.clusters.get(clusterName);
  if (clusterEntry === undefined) {
    throw referenceError("cluster", clusterName, context, overrides.cluster !== undefined, files);
  }

  const userName = overrides.user ?? context?.user;
  const userEntry = userName === undefined ? undefined : config.users.get(userName);
  if (userName !== undefined && userEntry === undefined) {
    throw referenceError("user", userName, context, overrides.user !== undefined, files);
  }

  const namespace = overrides.namespace ?? context?.namespace ?? "default";
  if (!DNS1123_LABEL.test(namespace)) {
    const problem = `namespace ${JSON.stringify(namespace)} is not a valid DNS-1123 label`;
    if (overrides.namespace !== undefined || context === undefined)
      throw new KubeconfigError("KUBECONFIG_INVALID", problem);
    throw entryError("KUBECONFIG_INVALID", "contexts", context.origin, "namespace", problem);
  }

  const cluster = await resolveCluster(clusterEntry);
  const user = await resolveUser(userEntry, cluster.execInfo, options);
  const tls = {
    ...cluster.tls,
    ...(user.cert !== undefined ? { cert: user.cert } : {}),
    ...(user.key !== undefined ? { key: user.key } : {}),
  };
  return {
    server: cluster.server,
    namespace,
    tls,
    auth: user.auth,
    disableCompression: cluster.disableCompression,
    ...(cluster.proxyUrl !== undefined ? { proxyUrl: cluster.proxyUrl } : {}),
    ...(user.impersonation !== undefined ? { impersonation: user.impersonation } : {}),
    source: {
      kind: "kubeconfig",
      files: config.files,
      context: context?.name,
      cluster: clusterName,
      user: userName,
    },
  };
}

function selectContext(config: MergedKubeconfig, overrides: KubeconfigOverrides): ContextEntry | undefined {
  const files = config.files.join(", ");
  if (overrides.context !== undefined) {
    const context = config.contexts.get(overrides.context);
    if (context === undefined) {
      throw new KubeconfigError(
        "KUBECONFIG_REFERENCE_NOT_FOUND",
        `context ${JSON.stringify(overrides.context)} not found in ${files}`,
      );
    }
    return context;
  }
  if (config.currentContext === undefined) {
    if (overrides.cluster !== undefined) return undefined;
    throw new KubeconfigError(
      "KUBECONFIG_NO_CONTEXT",
      `no current-context is set and no context was given (${files})`,
    );
  }
  const context = config.contexts.get(config.currentContext);
  if (context === undefined) {
    throw new KubeconfigError(
      "KUBECONFIG_REFERENCE_NOT_FOUND",
      `current-context ${JSON.stringify(config.currentContext)} names no context in ${files}`,
    );
  }
  return context;
}

function referenceError(
  kind: "cluster" | "user",
  name: string,
  context: ContextEntry | undefined,
  fromOverride: boolean,
  files: string,
): KubeconfigError {
  const problem = `${kind} ${JSON.stringify(name)} not found in ${files}`;
  if (fromOverride || context === undefined)
    return new KubeconfigError("KUBECONFIG_REFERENCE_NOT_FOUND", problem);
  return entryError("KUBECONFIG_REFERENCE_NOT_FOUND", "contexts", context.origin, kind, problem);
}
