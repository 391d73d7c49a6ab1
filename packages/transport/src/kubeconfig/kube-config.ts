import type { ClusterConnection } from "../connection.js";
import { type KubeconfigLocation, loadKubeconfigFiles } from "./load.js";
import { type MergedKubeconfig, mergeKubeconfigs } from "./merge.js";
import type { ClusterEntry, ContextEntry, UserEntry } from "./model.js";
import { parseKubeconfig } from "./parse.js";
import { type KubeconfigOverrides, resolveConnection } from "./resolve.js";
import type { CredentialOptions } from "./resolve-user.js";

/**
 * A loaded kubeconfig: the named clusters, users and contexts of all its files, merged by kubectl's
 * rules. Holds secrets (user entries); `resolve` turns a context into a {@link ClusterConnection}.
 */
export class KubeConfig {
  readonly #merged: MergedKubeconfig;

  constructor(merged: MergedKubeconfig) {
    this.#merged = merged;
  }

  /** Parses one kubeconfig given as text; `file` names it in errors and anchors relative paths. */
  static fromYaml(text: string, file: string): KubeConfig {
    return new KubeConfig(mergeKubeconfigs([parseKubeconfig(text, file)]));
  }

  /** Files read, in precedence order. */
  get files(): readonly string[] {
    return this.#merged.files;
  }

  get currentContext(): string | undefined {
    return this.#merged.currentContext;
  }

  get contexts(): ReadonlyMap<string, ContextEntry> {
    return this.#merged.contexts;
  }

  get clusters(): ReadonlyMap<string, ClusterEntry> {
    return this.#merged.clusters;
  }

  get users(): ReadonlyMap<string, UserEntry> {
    return this.#merged.users;
  }

  /** Builds the connection for the current (or overridden) context; reads referenced files. */
  resolve(overrides: KubeconfigOverrides = {}, options: CredentialOptions = {}): Promise<ClusterConnection> {
    return resolveConnection(this.#merged, overrides, options);
  }
}

/** Loads the kubeconfig kubectl would use: an explicit path, else KUBECONFIG, else ~/.kube/config. */
export async function loadKubeconfig(location: KubeconfigLocation = {}): Promise<KubeConfig> {
  return new KubeConfig(await loadKubeconfigFiles(location));
}
