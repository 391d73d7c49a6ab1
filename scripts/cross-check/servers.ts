/** The two servers the scenario runs against, behind one small interface. */
import { join } from "node:path";
import { startServer } from "@kubesdk/server";
import { startRealApiserver } from "../real-apiserver/start.js";

export type ServerKind = "reference" | "real";

export interface ServerUnderTest {
  readonly kind: ServerKind;
  readonly url: string;
  readonly kubeconfigPath: string;
  stop(): Promise<void>;
}

/** The reference server in this process, HTTPS with its own CA; the kubeconfig carries that CA. */
export async function startReference(scratchDir: string): Promise<ServerUnderTest> {
  const kubeconfigPath = join(scratchDir, "reference.kubeconfig");
  // No in-process controllers or cluster, as the real side runs (kube-apiserver without a controller-manager).
  const server = await startServer({ kubeconfigPath, cluster: false, controllers: false });
  return { kind: "reference", url: server.url, kubeconfigPath, stop: () => server.stop() };
}

/**
 * A real kube-apiserver with its defaults (watch cache on), as clusters run it:
 * this scenario needs neither compaction nor expiry.
 */
export async function startReal(): Promise<ServerUnderTest> {
  const server = await startRealApiserver();
  return { kind: "real", url: server.url, kubeconfigPath: server.kubeconfigPath, stop: () => server.stop() };
}
