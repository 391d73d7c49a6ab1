// End-to-end check of the real-apiserver harness: starts etcd + kube-apiserver,
// drives them with kubectl, compacts etcd and checks the 410 that follows.
// Needs the binaries from build.sh. Usage: tsx scripts/real-apiserver/smoke.ts
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import { httpGet } from "./http-get.js";
import { type RealApiserver, RealApiserverError, startRealApiserver } from "./start.js";

const execFileAsync = promisify(execFile);
const kubectlPath = process.env.KUBECTL ?? "kubectl";

class SmokeFailure extends Error {
  override readonly name = "SmokeFailure";
  readonly code = "SMOKE_CHECK_FAILED";
}

function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new SmokeFailure(what);
}

async function kubectl(server: RealApiserver, args: readonly string[]): Promise<string> {
  const { stdout } = await execFileAsync(kubectlPath, [`--kubeconfig=${server.kubeconfigPath}`, ...args]);
  return stdout;
}

function step(message: string): void {
  console.log(`• ${message}`);
}

async function withServer(
  watchCache: boolean,
  body: (server: RealApiserver) => Promise<void>,
): Promise<void> {
  const server = await startRealApiserver({ watchCache });
  try {
    step(
      `watchCache=${watchCache}: etcd healthy after ${server.timings.etcdReadyMs} ms, ` +
        `kube-apiserver /readyz ok after ${server.timings.apiserverReadyMs} ms at ${server.url}`,
    );
    await body(server);
  } finally {
    await server.stop();
    check(!existsSync(server.runDir), `run dir ${server.runDir} still exists after stop()`);
    for (const url of [`${server.url}/readyz`, `${server.etcdEndpoint}/health`]) {
      const answer = await httpGet(url, { caPem: server.caPem, timeoutMs: 2_000 }).then(
        (response) => `HTTP ${response.status}`,
        (error: unknown) => (error as { code?: string }).code ?? String(error),
      );
      check(answer === "ECONNREFUSED", `${url} still answers after stop(): ${answer}`);
    }
    step(`watchCache=${watchCache}: stopped; both ports refuse connections, run dir removed`);
  }
}

async function kubectlRoundTrip(server: RealApiserver): Promise<void> {
  const namespaces = await kubectl(server, ["get", "namespaces", "-o", "name"]);
  step(`kubectl get ns → ${namespaces.trim().split("\n").join(" ")}`);
  check(namespaces.includes("namespace/default"), "namespace default missing");
  check(namespaces.includes("namespace/kube-system"), "namespace kube-system missing");

  await kubectl(server, ["create", "configmap", "smoke", "--from-literal=greeting=hello"]);
  // --raw keeps the server's own list (kubectl -o json rebuilds one without a resourceVersion).
  const list = JSON.parse(
    await kubectl(server, ["get", "--raw", "/api/v1/namespaces/default/configmaps"]),
  ) as {
    metadata: { resourceVersion: string };
    items: Array<{ metadata: { name: string }; data?: Record<string, string> }>;
  };
  const smoke = list.items.find((item) => item.metadata.name === "smoke");
  check(smoke?.data?.greeting === "hello", "configmap smoke not listed with data.greeting=hello");
  step(
    `created configmap smoke; list at resourceVersion ${list.metadata.resourceVersion} has ${list.items.length} items`,
  );

  const { revision } = await server.compactEtcd();
  step(`compacted etcd to revision ${revision}`);
}

async function expiredAfterCompaction(server: RealApiserver): Promise<void> {
  const created = await kubectl(server, [
    "create",
    "configmap",
    "before",
    "-o",
    "jsonpath={.metadata.resourceVersion}",
  ]);
  await kubectl(server, ["create", "configmap", "after"]);
  const { revision } = await server.compactEtcd();
  step(`created configmaps at resourceVersion ${created}, compacted etcd to revision ${revision}`);

  const path = `/api/v1/namespaces/default/configmaps?limit=1&resourceVersion=${created}&resourceVersionMatch=Exact`;
  const response = await httpGet(`${server.url}${path}`, {
    caPem: server.caPem,
    bearerToken: server.token,
    timeoutMs: 10_000,
  });
  const status = JSON.parse(response.body) as { reason?: string; message?: string };
  step(`GET ${path} → ${response.status} ${status.reason ?? ""}: ${status.message ?? ""}`);
  check(
    response.status === 410 && status.reason === "Expired",
    "exact list at a compacted revision did not give 410",
  );
}

async function main(): Promise<void> {
  await withServer(true, kubectlRoundTrip);
  await withServer(false, expiredAfterCompaction);
  console.log("smoke: ok");
}

main().catch((error: unknown) => {
  const code = error instanceof RealApiserverError || error instanceof SmokeFailure ? ` [${error.code}]` : "";
  console.error(`smoke: FAILED${code}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
