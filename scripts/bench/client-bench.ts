/**
 * Client benchmark: one LIST of 5 000 pods from the reference server (run in a child process, so
 * its CPU time does not share this process's event loop), fetched by
 *   - the raw limit              undici request + JSON.parse of the same bytes
 *   - @kubesdk/client            kube.resource("v1", "Pod").list(), in JSON and in protobuf
 *   - @kubernetes/client-node    CoreV1Api.listNamespacedPod()
 * Rounds interleave the contenders so drift hits them alike. Reports the median time per list and
 * its ratio to the raw limit; then, for the same payload, bytes and decode time of protobuf
 * (@kubesdk/models' codec) as ratios to JSON.parse. No assertions: machines are noisy.
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
import { Kube } from "@kubesdk/client";
import { protobufCodec } from "@kubesdk/client/protobuf";
import { decodeObject, encodeObject } from "@kubesdk/models";
import { Agent, request } from "undici";
import YAML from "yaml";
import { mib, percentile } from "./stats.js";

const PODS = Number(process.env.BENCH_PODS ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const WARMUP = 3;
const NAMESPACE = "bench";
const PROTOBUF = "application/vnd.kubernetes.protobuf";
const utf8 = new TextDecoder();

interface PodList {
  items: unknown[];
}

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
    // The seeded pods are the bench's subject: no simulated cluster rewriting their status.
    cluster: false,
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

/** Runs every contender WARMUP + ROUNDS times, round-robin; returns the measured times (ms) of each. */
async function measure(contenders: readonly Contender[], expected: number): Promise<Map<string, number[]>> {
  const times = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    for (const c of contenders) {
      const t0 = performance.now();
      const n = await c.run();
      const ms = performance.now() - t0;
      if (n !== expected) throw new Error(`${c.name} returned ${n} items, expected ${expected}`);
      if (round >= WARMUP) times.get(c.name)?.push(ms);
    }
  }
  return times;
}

const median = (values: readonly number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
const p90 = (values: readonly number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    90,
  );

/** Prints one row per contender: median and p90 ms and the median's ratio to the first contender's. */
function printTable(title: string, times: Map<string, number[]>, unit: string): void {
  const rows = [...times];
  const base = median(rows[0]?.[1] ?? []);
  console.log(`\n${title}\n`);
  console.log(
    `${"".padEnd(40)}${`${unit} median`.padStart(14)}${"p90".padStart(10)}${`× ${rows[0]?.[0].split(":")[0]}`.padStart(10)}`,
  );
  for (const [name, values] of rows) {
    const m = median(values);
    console.log(
      `${name.padEnd(40)}${m.toFixed(1).padStart(14)}${p90(values).toFixed(1).padStart(10)}${(m / base).toFixed(2).padStart(10)}`,
    );
  }
}

async function main(): Promise<void> {
  const { child, kubeconfigPath } = await startChild();
  try {
    const kc = YAML.parse(readFileSync(kubeconfigPath, "utf8"));
    const server: string = kc.clusters[0].cluster.server;
    const ca = Buffer.from(kc.clusters[0].cluster["certificate-authority-data"], "base64").toString();
    const token: string = kc.users[0].user.token;
    const path = `/api/v1/namespaces/${NAMESPACE}/pods`;
    const agent = new Agent({ connect: { ca } });
    const fetchBytes = async (accept: string) => {
      const res = await request(server + path, {
        headers: { authorization: `Bearer ${token}`, accept },
        dispatcher: agent,
      });
      const contentType = String(res.headers["content-type"]);
      return { bytes: new Uint8Array(await res.body.arrayBuffer()), contentType };
    };

    const kube = await Kube.fromKubeconfig({ kubeconfig: { path: kubeconfigPath } });
    const kubeProtobuf = await Kube.fromKubeconfig({
      kubeconfig: { path: kubeconfigPath },
      protobuf: true,
      protobufCodec,
    });
    const nodeConfig = new k8s.KubeConfig();
    nodeConfig.loadFromFile(kubeconfigPath);
    const core = nodeConfig.makeApiClient(k8s.CoreV1Api);

    // 1. End to end: request, transfer, decode.
    const json = await fetchBytes("application/json");
    const proto = await fetchBytes(`${PROTOBUF}, application/json`);
    const served = proto.contentType.startsWith(PROTOBUF)
      ? "protobuf"
      : `JSON: server sent ${proto.contentType}`;
    const endToEnd = await measure(
      [
        {
          name: "raw: undici + JSON.parse",
          run: async () =>
            (JSON.parse(utf8.decode((await fetchBytes("application/json")).bytes)) as PodList).items.length,
        },
        {
          name: "@kubesdk/client (JSON)",
          run: async () => (await kube.resource("v1", "Pod").list({ namespace: NAMESPACE })).items.length,
        },
        {
          name: `@kubesdk/client (${served})`,
          run: async () =>
            (await kubeProtobuf.resource("v1", "Pod").list({ namespace: NAMESPACE })).items.length,
        },
        {
          name: "@kubernetes/client-node 1.4.0",
          run: async () => (await core.listNamespacedPod({ namespace: NAMESPACE })).items.length,
        },
      ],
      PODS,
    );
    printTable(
      `LIST of ${PODS} pods, end to end (${mib(json.bytes.length)} as JSON); ${ROUNDS} rounds after ${WARMUP} warm-up`,
      endToEnd,
      "ms",
    );

    // 2. The codec alone, on the same payload: protobuf bytes as the server sent them, or (if it
    // sent JSON) as the codec encodes the same list.
    const pbBytes = served === "protobuf" ? proto.bytes : encodeObject(JSON.parse(utf8.decode(json.bytes)));
    const decoding = await measure(
      [
        {
          name: "raw: JSON.parse",
          run: async () => (JSON.parse(utf8.decode(json.bytes)) as PodList).items.length,
        },
        {
          name: "protobuf: decodeObject",
          run: async () => (decodeObject(pbBytes) as unknown as PodList).items.length,
        },
      ],
      PODS,
    );
    printTable(
      `Decoding the same list: JSON ${mib(json.bytes.length)}, protobuf ${mib(pbBytes.length)} (${(pbBytes.length / json.bytes.length).toFixed(2)} × JSON bytes${served === "protobuf" ? "" : ", encoded locally"})`,
      decoding,
      "ms",
    );
    await agent.close();
    await kube.close();
    await kubeProtobuf.close();
  } finally {
    child.kill();
  }
}

if (process.argv.includes("--serve")) await serve();
else await main();
