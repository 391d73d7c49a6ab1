import { join } from "node:path";
import { freeLoopbackPort } from "./free-port.js";
import { httpGet } from "./http-get.js";
import { ManagedProcess } from "./managed-process.js";
import type { ApiserverPki } from "./pki.js";
import { waitUntilReady } from "./wait-ready.js";

export interface KubeApiserverArgsInput {
  pki: ApiserverPki;
  etcdEndpoint: string;
  securePort: number;
  certDir: string;
  watchCache: boolean;
  extraFlags: readonly string[];
}

/**
 * Flags for a loopback-only kube-apiserver with no cloud provider, kubelets or
 * controllers. Extra flags come last: for a repeated scalar flag the last one
 * wins, so callers can override any default here.
 */
export function kubeApiserverArgs(input: KubeApiserverArgsInput): string[] {
  const { pki } = input;
  return [
    `--etcd-servers=${input.etcdEndpoint}`,
    "--bind-address=127.0.0.1",
    "--advertise-address=127.0.0.1",
    `--secure-port=${input.securePort}`,
    `--cert-dir=${input.certDir}`,
    `--tls-cert-file=${pki.servingCertPath}`,
    `--tls-private-key-file=${pki.servingKeyPath}`,
    `--client-ca-file=${pki.caCertPath}`,
    `--token-auth-file=${pki.tokenFilePath}`,
    "--authorization-mode=RBAC",
    // As kubeadm and kind run it, so privileged pods (CNI, node agents) are accepted, as the
    // embedded server accepts them.
    "--allow-privileged=true",
    `--service-account-key-file=${pki.serviceAccountPublicKeyPath}`,
    `--service-account-signing-key-file=${pki.serviceAccountKeyPath}`,
    "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
    "--service-cluster-ip-range=10.0.0.0/24",
    // The default reconciler would publish 127.0.0.1 as the endpoint of the
    // "kubernetes" Service, which endpoint validation rejects as loopback.
    "--endpoint-reconciler-type=none",
    "--profiling=false",
    ...(input.watchCache ? [] : ["--watch-cache=false"]),
    ...input.extraFlags,
  ];
}

export interface StartKubeApiserverOptions {
  kubeApiserverPath: string;
  runDir: string;
  pki: ApiserverPki;
  etcdEndpoint: string;
  watchCache: boolean;
  extraFlags: readonly string[];
  readyTimeoutMs: number;
}

export interface RunningKubeApiserver {
  process: ManagedProcess;
  url: string;
  args: readonly string[];
}

export async function startKubeApiserver(options: StartKubeApiserverOptions): Promise<RunningKubeApiserver> {
  const securePort = await freeLoopbackPort();
  const url = `https://127.0.0.1:${securePort}`;
  const args = kubeApiserverArgs({
    ...options,
    securePort,
    certDir: join(options.runDir, "apiserver-certs"),
  });
  const process = new ManagedProcess(
    "kube-apiserver",
    options.kubeApiserverPath,
    args,
    join(options.runDir, "kube-apiserver.log"),
  );
  try {
    await waitUntilReady({
      process,
      timeoutMs: options.readyTimeoutMs,
      intervalMs: 200,
      probe: async () => {
        const { status, body } = await httpGet(`${url}/readyz`, {
          caPem: options.pki.caPem,
          bearerToken: options.pki.adminToken,
          timeoutMs: 5_000,
        });
        if (status === 200) return true;
        // /readyz lists every check; the failing ones ("[-]…") say why it is not ready.
        const failing = body.split("\n").filter((line) => line.startsWith("[-]"));
        return `HTTP ${status} ${failing.length > 0 ? failing.join(" | ") : body.trim()}`;
      },
    });
  } catch (error) {
    await process.stop(5_000);
    throw error;
  }
  return { process, url, args };
}
