/** The kubeconfig the reference server hands out: one cluster, one user, one context. */
import YAML from "yaml";

export interface KubeconfigInput {
  readonly url: string;
  readonly caPem?: string;
  readonly token?: string;
  readonly clientCertPem?: string;
  readonly clientKeyPem?: string;
  readonly name?: string;
  readonly namespace?: string;
}

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");

export function renderKubeconfig(input: KubeconfigInput): string {
  const name = input.name ?? "kubesdk";
  const user: Record<string, string> = {};
  if (input.token) user.token = input.token;
  if (input.clientCertPem) user["client-certificate-data"] = b64(input.clientCertPem);
  if (input.clientKeyPem) user["client-key-data"] = b64(input.clientKeyPem);
  const cluster: Record<string, unknown> = { server: input.url };
  if (input.caPem) cluster["certificate-authority-data"] = b64(input.caPem);
  return YAML.stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name, cluster }],
    users: [{ name, user }],
    contexts: [
      {
        name,
        context: { cluster: name, user: name, ...(input.namespace ? { namespace: input.namespace } : {}) },
      },
    ],
    "current-context": name,
    preferences: {},
  });
}
