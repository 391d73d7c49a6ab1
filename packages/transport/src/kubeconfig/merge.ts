import type { ClusterEntry, ContextEntry, KubeconfigDocument, UserEntry } from "./model.js";

/** Several kubeconfig files merged by kubectl's rules. */
export interface MergedKubeconfig {
  /** The files that were read, in precedence order. */
  readonly files: readonly string[];
  readonly clusters: ReadonlyMap<string, ClusterEntry>;
  readonly users: ReadonlyMap<string, UserEntry>;
  readonly contexts: ReadonlyMap<string, ContextEntry>;
  readonly currentContext: string | undefined;
}

/**
 * Merges files in precedence order: the first file to define a cluster, user or context name wins
 * and keeps that whole entry (later files' fields for the same name are not mixed in); current-context
 * comes from the first file that sets one.
 */
export function mergeKubeconfigs(documents: readonly KubeconfigDocument[]): MergedKubeconfig {
  const clusters = new Map<string, ClusterEntry>();
  const users = new Map<string, UserEntry>();
  const contexts = new Map<string, ContextEntry>();
  let currentContext: string | undefined;
  for (const doc of documents) {
    addNew(clusters, doc.clusters);
    addNew(users, doc.users);
    addNew(contexts, doc.contexts);
    currentContext ??= doc.currentContext;
  }
  return { files: documents.map((d) => d.file), clusters, users, contexts, currentContext };
}

function addNew<E extends { readonly name: string }>(into: Map<string, E>, entries: readonly E[]): void {
  for (const entry of entries) {
    if (!into.has(entry.name)) into.set(entry.name, entry);
  }
}
