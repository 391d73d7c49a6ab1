import { ClientError } from "../errors.js";
import type { ResourceTarget } from "../resource-target.js";

/**
 * Percent-encodes one URL path segment. Empty, "." and ".." are refused: a server (or a proxy)
 * would resolve them as path navigation and the request would reach another URL.
 */
export function pathSegment(value: string, what: string): string {
  if (typeof value !== "string" || value === "" || value === "." || value === "..") {
    throw new ClientError(
      "INVALID_PATH_SEGMENT",
      `${what} ${JSON.stringify(value)} cannot be used in a URL path`,
    );
  }
  return encodeURIComponent(value);
}

/** The error for a namespace given to a cluster-scoped resource. */
export function namespaceNotAllowed(target: ResourceTarget, namespace: string): ClientError {
  return new ClientError(
    "NAMESPACE_NOT_ALLOWED",
    `${target.plural} is cluster-scoped; a namespace (${JSON.stringify(namespace)}) cannot be given`,
  );
}

/** Pure URL paths of one resource: its collection, one object, one subresource of an object. */
export class ResourcePaths {
  readonly target: ResourceTarget;
  readonly #prefix: string;
  readonly #plural: string;

  constructor(target: ResourceTarget) {
    this.target = target;
    const version = pathSegment(target.version, "API version");
    this.#plural = pathSegment(target.plural, "resource");
    this.#prefix =
      target.group === "" ? `/api/${version}` : `/apis/${pathSegment(target.group, "API group")}/${version}`;
  }

  /**
   * The collection: `/apis/<g>/<v>[/namespaces/<ns>]/<plural>`. A namespaced resource without a
   * namespace means the collection across all namespaces.
   */
  collection(namespace?: string): string {
    if (namespace === undefined) return `${this.#prefix}/${this.#plural}`;
    if (!this.target.namespaced) throw namespaceNotAllowed(this.target, namespace);
    return `${this.#prefix}/namespaces/${pathSegment(namespace, "namespace")}/${this.#plural}`;
  }

  /** One object, or one of its subresources (`…/<name>/status`). */
  object(name: string, namespace?: string, subresource?: string): string {
    const base = `${this.collection(namespace)}/${pathSegment(name, "name")}`;
    return subresource === undefined ? base : `${base}/${pathSegment(subresource, "subresource")}`;
  }
}
