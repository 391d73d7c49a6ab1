import { writeFile } from "node:fs/promises";

export interface KubeconfigInput {
  server: string;
  caPem: string;
  token: string;
}

const name = "kubesdk-real-apiserver";

/**
 * A single-context kubeconfig. JSON is valid YAML, and kubectl and client
 * libraries read either, so no YAML writer is needed.
 */
export function renderKubeconfig({ server, caPem, token }: KubeconfigInput): string {
  const config = {
    apiVersion: "v1",
    kind: "Config",
    clusters: [
      {
        name,
        cluster: { server, "certificate-authority-data": Buffer.from(caPem, "utf8").toString("base64") },
      },
    ],
    users: [{ name, user: { token } }],
    contexts: [{ name, context: { cluster: name, user: name, namespace: "default" } }],
    "current-context": name,
    preferences: {},
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

export async function writeKubeconfig(path: string, input: KubeconfigInput): Promise<void> {
  await writeFile(path, renderKubeconfig(input), { mode: 0o600 });
}
