/**
 * Server-side apply from a reconcile, fenced: `fencedApply(resource, config, { fence: request, … })`
 * checks the fence synchronously right before the request goes out and sends it with the fence's
 * signal, so a reconcile whose leadership lapsed cannot apply any more (it gets the fence's typed
 * error). Everything else is the client's `apply`.
 */
import type { ApplyConfiguration, ApplyOptions } from "@kubesdk/client";
import type { KubernetesObject } from "@kubesdk/models";
import { type Fence, passFence } from "./fence.js";
import type { AnyResourceClient } from "./informer-source.js";

export function fencedApply<T extends KubernetesObject>(
  resource: AnyResourceClient<T>,
  config: ApplyConfiguration<T>,
  options: Omit<ApplyOptions, "signal"> & { readonly fence: Fence | AbortSignal },
): Promise<T> {
  const { fence, ...rest } = options;
  const signal = passFence(fence) as AbortSignal;
  return resource.apply(config as never, { ...rest, signal });
}
