/** Direct access to the in-process reference server: fast seeding and stream-level hooks. */
import { randomUUID } from "node:crypto";
import type { RunningServer } from "@kubesdk/server";

const CONFIGMAPS = () => ({ group: "", version: "v1", resource: "configmaps" });

function bucket(server: RunningServer): string {
  const { group, version, resource } = CONFIGMAPS();
  const r = server.resources.find(group, version, resource);
  if (r === undefined) throw new Error("the reference server serves no configmaps");
  return r.bucket;
}

/** Creates ConfigMaps straight in the server's store (thousands per second; watchers see them). */
export function seedConfigMaps(server: RunningServer, ns: string, names: readonly string[]): void {
  const b = bucket(server);
  const created = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  for (const name of names) {
    server.store.create(b, `${ns}/${name}`, {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name, namespace: ns, uid: randomUUID(), creationTimestamp: created },
      data: { v: "0" },
    });
  }
}

/** Replaces a ConfigMap's data straight in the store. */
export function updateConfigMapInStore(
  server: RunningServer,
  ns: string,
  name: string,
  data: Record<string, string>,
): void {
  const b = bucket(server);
  const current = server.store.get(b, `${ns}/${name}`);
  if (current === undefined) throw new Error(`no configmap ${ns}/${name}`);
  server.store.update(b, `${ns}/${name}`, { ...current, data });
}

export function deleteConfigMapInStore(server: RunningServer, ns: string, name: string): void {
  server.store.delete(bucket(server), `${ns}/${name}`);
}

/**
 * The next `count` watches opened on the server end cleanly right after their headers, before any
 * event: what a client sees when a watch "ends at once without events".
 */
export function endNextWatches(server: RunningServer, count: number): { readonly ended: number } {
  const state = { ended: 0 };
  const previous = server.watches.onOpen;
  server.watches.onOpen = (w, path) => {
    previous?.(w, path);
    if (state.ended >= count) return;
    state.ended++;
    if (state.ended === count) server.watches.onOpen = previous;
    w.stream.end("dropped");
  };
  return state;
}
