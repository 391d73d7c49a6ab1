/** Which collection an informer caches and where it lives on the API server (pure). */
import { apiVersionOf, ModelsError, registry } from "@kubesdk/models";
import { InvalidInformerOptionError } from "./errors.js";

/**
 * A listable, watchable resource. A `ResourceInfo` from @kubesdk/models fits; custom resources
 * can be described by hand.
 */
export interface ResourceTarget {
  /** API group; "" for the core group. */
  readonly group: string;
  readonly version: string;
  /** Plural name as in URLs, e.g. "configmaps". */
  readonly plural: string;
  /** Kind of the objects, e.g. "ConfigMap"; objects of another kind in the stream are skipped. */
  readonly kind: string;
  readonly namespaced: boolean;
}

/** Resolves a name ("configmaps", "deploy", "deployments.apps") against the built-in registry. */
export function resolveResource(resource: ResourceTarget | string): ResourceTarget {
  if (typeof resource !== "string") {
    for (const field of ["version", "plural", "kind"] as const) {
      if (typeof resource[field] !== "string" || resource[field] === "")
        throw new InvalidInformerOptionError(`resource.${field}`, "must be a non-empty string");
    }
    return resource;
  }
  try {
    return registry.resolve(resource);
  } catch (err) {
    if (err instanceof ModelsError) throw new InvalidInformerOptionError("resource", err.message);
    throw err;
  }
}

/** `/api/v1/namespaces/ns/configmaps`, `/apis/apps/v1/deployments` (all namespaces) and so on. */
export function collectionPath(resource: ResourceTarget, namespace: string | undefined): string {
  if (namespace !== undefined && !resource.namespaced)
    throw new InvalidInformerOptionError(
      "namespace",
      `${resource.plural} is cluster-scoped; a namespace cannot be given`,
    );
  const root =
    resource.group === "" ? `/api/${resource.version}` : `/apis/${resource.group}/${resource.version}`;
  const scope = namespace === undefined ? "" : `/namespaces/${encodeURIComponent(namespace)}`;
  return `${root}${scope}/${resource.plural}`;
}

/** The apiVersion string of a resource ("v1", "apps/v1"). */
export function resourceApiVersion(resource: ResourceTarget): string {
  return apiVersionOf(resource);
}
