import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { stringify } from "yaml";

/** Writes `config` as YAML to `dir/name` (creating directories) and returns the path. */
export function writeKubeconfig(dir: string, name: string, config: unknown): string {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof config === "string" ? config : stringify(config));
  return file;
}

/** A minimal one-context kubeconfig; `user` and `cluster` fields are merged in. */
export function simpleKubeconfig(options: {
  server?: string;
  cluster?: Record<string, unknown>;
  user?: Record<string, unknown>;
  namespace?: string;
}): Record<string, unknown> {
  return {
    apiVersion: "v1",
    kind: "Config",
    clusters: [
      { name: "c", cluster: { server: options.server ?? "https://127.0.0.1:6443", ...options.cluster } },
    ],
    users: [{ name: "u", user: options.user ?? {} }],
    contexts: [
      {
        name: "ctx",
        context: { cluster: "c", user: "u", ...(options.namespace ? { namespace: options.namespace } : {}) },
      },
    ],
    "current-context": "ctx",
  };
}
