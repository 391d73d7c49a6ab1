import type { ResourceInfo } from "@kubesdk/models";

/**
 * What request building needs to know about a resource: where it lives and what the server
 * supports for it. Built from the registry (built-ins), from discovery, or from a user's
 * custom resource description.
 */
export interface ResourceTarget {
  /** API group; "" for the core group. */
  readonly group: string;
  readonly version: string;
  /** Plural resource name used in URLs, e.g. "deployments". */
  readonly plural: string;
  readonly namespaced: boolean;
  /** Kind of the objects, used to fill in list items' apiVersion/kind; undefined when unknown. */
  readonly kind?: string;
  /**
   * True for kinds compiled into kube-apiserver: only those support strategic merge patch and
   * protobuf. Custom resources (CRDs) and aggregated APIs are false.
   */
  readonly builtin: boolean;
  /** Subresources the server serves (e.g. "status", "scale"); undefined when unknown (anything goes). */
  readonly subresources?: readonly string[];
  /** Discovery verbs; undefined when unknown (anything goes). */
  readonly verbs?: readonly string[];
}

/** The target of a resource from the built-in registry or from discovery. */
export function targetOf(info: ResourceInfo, builtin: boolean): ResourceTarget {
  return {
    group: info.group,
    version: info.version,
    plural: info.plural,
    namespaced: info.namespaced,
    kind: info.kind,
    builtin,
    subresources: info.subresources.map((s) => s.name),
    verbs: info.verbs,
  };
}
