/** Reading the few metadata fields the informer relies on, from objects it does not trust. */
import type { KubernetesObject } from "@kubesdk/models";

/** `namespace/name` for namespaced objects, `name` otherwise (the client-go key format). */
export function objectKey(obj: KubernetesObject): string {
  const meta = obj.metadata;
  const name = meta?.name ?? "";
  return meta?.namespace ? `${meta.namespace}/${name}` : name;
}

/** The object's resourceVersion, or undefined when it has none. */
export function resourceVersionOf(obj: unknown): string | undefined {
  const rv = (obj as { metadata?: { resourceVersion?: unknown } } | null)?.metadata?.resourceVersion;
  return typeof rv === "string" && rv !== "" ? rv : undefined;
}

/** True for a JSON object with a string `metadata.name`. */
export function hasName(obj: unknown): obj is KubernetesObject {
  if (typeof obj !== "object" || obj === null || Array.isArray(obj)) return false;
  const meta = (obj as { metadata?: unknown }).metadata;
  return (
    typeof meta === "object" &&
    meta !== null &&
    typeof (meta as { name?: unknown }).name === "string" &&
    (meta as { name: string }).name !== ""
  );
}

const INITIAL_EVENTS_END = "k8s.io/initial-events-end";

/** A bookmark that closes the initial events of a streaming list: annotated exactly "true". */
export function isInitialEventsEnd(bookmark: unknown): boolean {
  const annotations = (bookmark as { metadata?: { annotations?: Record<string, unknown> } } | null)?.metadata
    ?.annotations;
  return annotations?.[INITIAL_EVENTS_END] === "true";
}
