/**
 * A reference server with its simulated cluster for one test file: kubectl bound to it, manifests
 * applied from strings, and waits that end on store events (no polling, no sleeps).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningServer, type StartOptions, startServer } from "@kubesdk/server";
import { type Kubectl, kubectlFor } from "../support/kubectl.js";

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes.
export type Json = any;

export interface SimulatedClusterSuite {
  readonly server: RunningServer;
  readonly kubeconfig: string;
  readonly kubectl: Kubectl;
  /** `kubectl apply -f -` of a YAML manifest; throws with kubectl's stderr when it fails. */
  apply(yaml: string): Promise<void>;
  /** The stored object (`bucket` as the store names it, e.g. "/pods"), undefined when absent. */
  get(bucket: string, key: string): Json;
  list(bucket: string, namespace: string): Json[];
  /** Resolves with `check`'s first truthy answer, asked now and after every store event. */
  until<T>(check: () => T | undefined | false): Promise<T>;
  stop(): Promise<void>;
}

export async function startSimulatedCluster(options: StartOptions = {}): Promise<SimulatedClusterSuite> {
  const server = await startServer(options);
  const dir = mkdtempSync(join(tmpdir(), "kubesdk-simulated-cluster-"));
  const kubeconfig = join(dir, "kubeconfig");
  writeFileSync(kubeconfig, server.kubeconfig);
  const kubectl = kubectlFor(() => kubeconfig);
  let manifests = 0;
  const suite: SimulatedClusterSuite = {
    server,
    kubeconfig,
    kubectl,
    async apply(yaml) {
      const path = join(dir, `manifest-${manifests++}.yaml`);
      writeFileSync(path, yaml);
      const res = await kubectl("apply", "-f", path);
      if (res.code !== 0) throw new Error(`kubectl apply: ${res.stderr}`);
    },
    get: (bucket, key) => server.store.get(bucket, key),
    list: (bucket, namespace) => server.store.list(bucket, { prefix: `${namespace}/` }).items,
    until(check) {
      return new Promise((resolve) => {
        const first = check();
        if (first) return resolve(first);
        const unsubscribe = server.store.subscribe(() => {
          const answer = check();
          if (!answer) return;
          unsubscribe();
          resolve(answer);
        });
      });
    },
    stop: () => server.stop(),
  };
  return suite;
}

/** The condition `type` of an object's status, if set. */
export function conditionOf(obj: Json, type: string): Json {
  return (obj?.status?.conditions ?? []).find((c: Json) => c.type === type);
}

export const isTrue = (obj: Json, type: string) => conditionOf(obj, type)?.status === "True";
