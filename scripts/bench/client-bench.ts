/**
 * Client benchmark: one LIST of 5 000 pods from the reference server (run in a child process, so
 * its CPU time does not share this process's event loop), fetched by
 *   - @kubesdk/client            kube.resource("v1", "Pod").list()
 *   - @kubernetes/client-node    CoreV1Api.listNamespacedPod()
 *   - the raw limit              undici request + JSON.parse of the same bytes
 * Rounds interleave the three so drift hits them alike. Reports the median time per list and each
 * one's ratio to the raw limit. No assertions: machines are noisy, read the ratios.
 *
 * Run: node --conditions=source --import tsx scripts/bench/client-bench.ts
 * Env: BENCH_PODS (default 5000), BENCH_ROUNDS (default 15).
 */
import { type ChildProcess, fork } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as k8s from "@kubernetes/client-node";
import { KubeClient } from "@kubesdk/client";
import { Agent, request } from "undici";
import YAML from "yaml";
import { percentile } from "./stats.js";

const PODS = Number(process.env.BENCH_PODS ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const WARMUP = 3;
const NAMESPACE = "bench";

/** A pod shaped like one a controller and kubelet produced: labels, owner, two containers, status. */
function pod(i: number): Record<string, unknown> {
  const name = `web-7d9f8c6b5-${String(i).padStart(5, "0")}`;
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      namespace: NAMESPACE,
      labels: { app: "web", "pod-template-hash": "7d9f8c6b5", shard: String(i % 16) },
      annotations: { "kubectl.kubernetes.io/restartedAt": "2026-01-01T00:00:00Z" },
      ownerReferences: [
        {
          apiVersion: "apps/v1",
          kind: "ReplicaSet",
          name: "web-7d9f8c6b5",
          uid: "0b6f4c1e-8a55-4d1c-9a3c-6c1d2b8f9e10",
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      containers: [
        {
          name: "web",
          image: "registry.example.com/web:1.27.3",
          ports: [{ name: "http", containerPort: 8080, protocol: "TCP" }],
          env: [
            { name: "POD_INDEX", value: String(i) },
            { name: "LOG_LEVEL", value: "info" },
          ],
          resources: { requests: { cpu: "100m", memory: "128Mi" }, limits: { memory: "256Mi" } },
          readinessProbe: { httpGet: { path: "/healthz", port: 8080 }, periodSeconds: 10 },
          volumeMounts: [{ name: "config", mountPath: "/etc/web" }],
        },
        { name: "sidecar", image: "registry.example.com/proxy:2.1.0", args: ["--port=15001"] },
      ],
      volumes: [{ name: "config", configMap: { name: "web-config" } }],
      nodeName: `node-${i % 50}`,
      restartPolicy: "Always",
      terminationGracePeriodSeconds: 30,
    },
    status: {
      phase: "Running",
      podIP: `10.0.${Math.floor(i / 250)}.${i % 250}`,
      hostIP: `192.168.1.${i % 50}`,
      startTime: "2026-01-01T00:00:00Z",
      conditions: [
        { type: "Ready", status: "True", lastTransitionTime: "2026-01-01T00:00:05Z" },
        { type: "ContainersReady", status: "True", lastTransitionTime: "2026-01-01T00:00:05Z" },
        { type: "PodScheduled", status: "True", lastTransitionTime: "2026-01-01T00:00:00Z" },
      ],
      containerStatuses: [
        {
          name: "web",
          ready: true,
          restartCount: 0,
          image: "registry.example.com/web:1.27.3",
          imageID: "sha256:1f2e",
          started: true,
          state: { running: { startedAt: "2026-01-01T00:00:03Z" } },
        },
        {
          name: "sidecar",
          ready: true,
          restartCount: 1,
          image: "registry.example.com/proxy:2.1.0",
          imageID: "sha256:3a4b",
          started: true,
          state: { running: { startedAt: "2026-01-01T00:00:04Z" } },
        },
      ],
    },
  };
}

// The child: the reference server seeded with the pods; reports its kubeconfig path, then waits.
async function serve(): Promise<void> {
  const { startServer } = await import("@kubesdk/server");
  const kubeconfigPath = join(mkdtempSync(join(tmpdir(), "kubesdk-bench-")), "kubeconfig");
  await startServer({
    kubeconfigPath,
    seed: [
      { apiVersion: "v1", kind: "Namespace", metadata: { name: NAMESPACE } },
      ...Array.from({ length: PODS }, (_, i) => pod(i)),
    ],
  });
  process.send?.({ kubeconfigPath });
}

function startChild(): Promise<{ child: ChildProcess; kubeconfigPath: string }> {
  const child = fork(fileURLToPath(import.meta.url), ["--serve"], { stdio: "inherit" });
  return new Promise((resolve, reject) => {
    child.once("message", (m) =>
      resolve({ child, kubeconfigPath: (m as { kubeconfigPath: string }).kubeconfigPath }),
    );
    child.once("exit", (code) => reject(new Error(`server process exited with ${code}`)));
  });
}

interface Contender {
  readonly name: string;
  /** Fetches the list; returns the number of items (checked, so nobody wins by skipping work). */
  readonly run: () => Promise<number>;
}

async function main(): Promise<void> {
  const { child, kubeconfigPath } = await startChild();
  try {
    const kc = YAML.parse(readFileSync(kubeconfigPath, "utf8"));
    const server: string = kc.clusters[0].cluster.server;
    const ca = Buffer.from(kc.clusters[0].cluster["certificate-authority-data"], "base64").toString();
    const token: string = kc.users[0].user.token;
    const path = `/api/v1/namespaces/${NAMESPACE}/pods`;

    const kube = await KubeClient.fromKubeconfig({ kubeconfig: { path: kubeconfigPath } });
    const pods = kube.resource("v1", "Pod");
    const nodeConfig = new k8s.KubeConfig();
    nodeConfig.loadFromFile(kubeconfigPath);
    const core = nodeConfig.makeApiClient(k8s.CoreV1Api);
    const agent = new Agent({ connect: { ca } });
    let wireBytes = 0;

    const contenders: Contender[] = [
      {
        name: "raw: undici + JSON.parse",
        run: async () => {
          const res = await request(server + path, {
            headers: { authorization: `Bearer ${token}`, accept: "application/json" },
            dispatcher: agent,
          });
          const bytes = await res.body.arrayBuffer();
          wireBytes = bytes.byteLength;
          return (JSON.parse(Buffer.from(bytes).toString("utf8")) as { items: unknown[] }).items.length;
        },
      },
      { name: "@kubesdk/client", run: async () => (await pods.list({ namespace: NAMESPACE })).items.length },
      {
        name: "@kubernetes/client-node 1.4.0",
        run: async () => (await core.listNamespacedPod({ namespace: NAMESPACE })).items.length,
      },
    ];

    const times = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      for (const c of contenders) {
        const t0 = performance.now();
        const n = await c.run();
        const ms = performance.now() - t0;
        if (n !== PODS) throw new Error(`${c.name} returned ${n} pods, expected ${PODS}`);
        if (round >= WARMUP) times.get(c.name)?.push(ms);
      }
    }

    const median = (name: string) =>
      percentile(
        [...(times.get(name) ?? [])].sort((a, b) => a - b),
        50,
      );
    const raw = median(contenders[0]?.name as string);
    console.log(
      `\nLIST of ${PODS} pods (${(wireBytes / 1024 / 1024).toFixed(1)} MiB JSON), median of ${ROUNDS} rounds after ${WARMUP} warm-up\n`,
    );
    console.log(
      `${"contender".padEnd(34)}${"ms/list".padStart(10)}${"p90 ms".padStart(10)}${"× raw".padStart(8)}`,
    );
    for (const c of contenders) {
      const sorted = [...(times.get(c.name) ?? [])].sort((a, b) => a - b);
      const m = median(c.name);
      console.log(
        `${c.name.padEnd(34)}${m.toFixed(1).padStart(10)}${percentile(sorted, 90).toFixed(1).padStart(10)}${(m / raw).toFixed(2).padStart(8)}`,
      );
    }
    await agent.close();
    await kube.close();
  } finally {
    child.kill();
  }
}

if (process.argv.includes("--serve")) await serve();
else await main();
