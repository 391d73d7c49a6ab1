/**
 * Status writes through server-side apply of the status subresource.
 *
 * Contract of {@link applyStatus}: sends `{apiVersion, kind, metadata: {name, namespace}, status}`
 * as an apply patch to `<object>/status` as `fieldManager`, forcing ownership (the controller is
 * the authority for the status fields it sets). Fields of `status` the manager set before and
 * leaves out now are removed, as server-side apply does; the spec is never touched. Given a
 * `fence` (the reconcile request), it throws instead of sending once the fence has lapsed.
 */
import type { KubernetesObject } from "@kubesdk/models";
import { type Fence, passFence } from "./fence.js";
import type { AnyResourceClient } from "./informer-source.js";

export async function applyStatus<T extends KubernetesObject & { status?: unknown }>(
  resource: AnyResourceClient<T>,
  obj: T,
  status: NonNullable<T["status"]>,
  options: { readonly fieldManager: string; readonly signal?: AbortSignal; readonly fence?: Fence },
): Promise<T> {
  const signal = passFence(options.fence) ?? passFence(options.signal);
  const t = resource.target;
  const apiVersion = obj.apiVersion ?? (t.group === "" ? t.version : `${t.group}/${t.version}`);
  const namespace = obj.metadata?.namespace;
  const config = {
    apiVersion,
    kind: obj.kind ?? t.kind,
    metadata: { name: obj.metadata?.name, ...(namespace ? { namespace } : {}) },
    status,
  };
  return resource.status.apply(config as never, {
    fieldManager: options.fieldManager,
    conflicts: "force",
    ...(namespace ? { namespace } : {}),
    ...(signal ? { signal } : {}),
  });
}
