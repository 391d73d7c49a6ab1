/**
 * Helpers of the controller suites: a client for the target, a namespace per suite, and waiting
 * for an object state through a watch (no polling, no sleeps).
 */
import { Kube, type ResourceClient } from "@kubesdk/client";
import type { KubernetesObject } from "@kubesdk/models";
import type { TestTarget } from "../support/target.js";
import { uniqueName } from "../support/target.js";

export async function clientOf(t: TestTarget): Promise<Kube> {
  return Kube.fromKubeconfig({ kubeconfig: { path: t.kubeconfigPath } });
}

export async function createNamespace(kube: Kube, prefix: string): Promise<string> {
  const name = uniqueName(prefix);
  await kube.resource("v1", "Namespace").create({ metadata: { name } });
  return name;
}

/**
 * Resolves with the object (or undefined once gone) as soon as `done` holds for its state: the
 * current state first, then each watch event.
 */
export async function waitForObject<T extends KubernetesObject>(
  client: ResourceClient<T>,
  namespace: string,
  name: string,
  done: (obj: T | undefined) => boolean,
): Promise<T | undefined> {
  const fieldSelector = `metadata.name=${name}`;
  for (;;) {
    const list = await client.list({ namespace, fieldSelector });
    let current = list.items[0];
    if (done(current)) return current;
    const abort = new AbortController();
    try {
      for await (const event of client.watch({
        namespace,
        fieldSelector,
        resourceVersion: list.metadata?.resourceVersion ?? "",
        signal: abort.signal,
      })) {
        if (event.type === "BOOKMARK") continue;
        current = event.type === "DELETED" ? undefined : event.object;
        if (done(current)) return current;
      }
    } finally {
      abort.abort();
    }
  }
}

/** A promise with its resolve function, for gates in tests. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
