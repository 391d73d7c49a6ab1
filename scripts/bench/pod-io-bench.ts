/**
 * Pod I/O benchmark: throughput (MiB/s) and latency of port-forward and of exec stdout, each as a
 * ratio to a direct TCP connection to the same local endpoint (the "pod's" service).
 *   - port-forward throughput: one connection reads BENCH_MB MiB the endpoint sends
 *   - port-forward latency: 1-byte echo round trips on one open connection (median)
 *   - exec stdout throughput: an exec hook writes BENCH_MB MiB to stdout
 *   - exec latency: a whole `run(["true"])` session against a TCP connect + one round trip
 * Target: the reference server in-process (default), or BENCH_TARGET=real: a kube-apiserver
 * (scripts/real-apiserver) proxying to a kubelet endpoint that serves the same hooks. No
 * assertions: machines are noisy.
 *
 * Run: pnpm bench:podio   Env: BENCH_MB (default 64), BENCH_PINGS (default 300), BENCH_TARGET.
 */
import { connect, createServer, type Server, type Socket } from "node:net";
import { Kube } from "@kubesdk/client";
import type { PodRuntimeOptions } from "@kubesdk/server";
import { type BenchTarget, startBenchTarget } from "./pod-io-target.js";
import { percentile } from "./stats.js";

const MB = Number(process.env.BENCH_MB ?? 64);
const BYTES = MB * 1024 * 1024;
const PINGS = Number(process.env.BENCH_PINGS ?? 300);
const POD_PORT = 7000;
const CHUNK = Buffer.alloc(64 * 1024, 0x61);

/** The pod's service: "S" streams BYTES then closes; any other first byte echoes. */
function startEndpoint(): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => {
    socket.once("data", (first: Buffer) => {
      if (first[0] !== 0x53) {
        socket.write(first);
        socket.pipe(socket);
        return;
      }
      let sent = 0;
      const pump = () => {
        while (sent < BYTES) {
          sent += CHUNK.length;
          if (!socket.write(CHUNK)) return void socket.once("drain", pump);
        }
        socket.end();
      };
      pump();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, port: (server.address() as { port: number }).port }),
    ),
  );
}

/** Reads everything a fresh connection to `port` sends after "S"; returns MiB/s. */
function readAll(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let got = 0;
    const socket = connect(port, "127.0.0.1", () => socket.write("S"));
    socket.on("data", (c: Buffer) => {
      got += c.length;
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(got / 1024 / 1024 / ((performance.now() - t0) / 1000)));
  });
}

/** Median 1-byte echo round trip (ms) on one connection to `port`. */
async function pingMedian(port: number): Promise<number> {
  const socket: Socket = await new Promise((resolve) => {
    const s = connect(port, "127.0.0.1", () => resolve(s));
  });
  const rtts: number[] = [];
  for (let i = 0; i < PINGS; i++) {
    const t0 = performance.now();
    await new Promise((resolve) => {
      socket.once("data", resolve);
      socket.write("p");
    });
    rtts.push(performance.now() - t0);
  }
  socket.destroy();
  return percentile(
    rtts.sort((a, b) => a - b),
    50,
  );
}

/** Median time (ms) of a TCP connect plus one round trip. */
async function connectMedian(port: number, rounds: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      const s = connect(port, "127.0.0.1", () => s.write("p"));
      s.once("data", () => {
        s.destroy();
        resolve();
      });
    });
    times.push(performance.now() - t0);
  }
  return percentile(
    times.sort((a, b) => a - b),
    50,
  );
}

function hooks(endpointPort: number): PodRuntimeOptions {
  return {
    portForward: (_pod, port) => (port === POD_PORT ? connect(endpointPort, "127.0.0.1") : undefined),
    exec: async (proc) => {
      if (proc.command[0] !== "blast") return undefined;
      for (let sent = 0; sent < BYTES; sent += CHUNK.length)
        if (!proc.stdout.write(CHUNK)) await new Promise((resolve) => proc.stdout.once("drain", resolve));
      return 0;
    },
  };
}

async function execThroughput(kube: Kube, pod: string): Promise<number> {
  const t0 = performance.now();
  const session = await kube.pods.exec(pod, ["blast"]);
  let got = 0;
  session.stdout?.on("data", (c: Buffer) => {
    got += c.length;
  });
  await session.done;
  return got / 1024 / 1024 / ((performance.now() - t0) / 1000);
}

function row(name: string, direct: number, viaPod: number, unit: string, lowerIsBetter: boolean): string {
  const ratio = lowerIsBetter ? viaPod / direct : direct / viaPod;
  return `${name.padEnd(28)} ${direct.toFixed(2).padStart(10)} ${viaPod.toFixed(2).padStart(10)} ${unit.padEnd(6)} ${ratio.toFixed(2).padStart(7)}x`;
}

async function main(): Promise<void> {
  const endpoint = await startEndpoint();
  const target: BenchTarget = await startBenchTarget(
    process.env.BENCH_TARGET === "real",
    hooks(endpoint.port),
  );
  try {
    const kube = await Kube.fromKubeconfig({ kubeconfig: { path: target.kubeconfigPath } });
    const pod = await target.createPod(kube);
    const forward = await kube.pods.portForward(pod, POD_PORT);
    const local = forward.ports[0]?.local as number;
    // Warm-up: connections, TLS sessions, JIT.
    await readAll(local);
    await execThroughput(kube, pod);
    const results = [
      row("port-forward throughput", await readAll(endpoint.port), await readAll(local), "MiB/s", false),
      row("port-forward round trip", await pingMedian(endpoint.port), await pingMedian(local), "ms", true),
      row(
        "exec stdout throughput",
        await readAll(endpoint.port),
        await execThroughput(kube, pod),
        "MiB/s",
        false,
      ),
    ];
    const execTimes: number[] = [];
    for (let i = 0; i < 30; i++) {
      const t0 = performance.now();
      await kube.pods.run(pod, ["true"]);
      execTimes.push(performance.now() - t0);
    }
    const execMedian = percentile(
      execTimes.sort((a, b) => a - b),
      50,
    );
    results.push(
      row("exec session (run true)", await connectMedian(endpoint.port, 30), execMedian, "ms", true),
    );
    console.log(`pod I/O benchmark against ${target.label}, ${MB} MiB transfers, ${PINGS} pings`);
    console.log(
      `${"".padEnd(28)} ${"direct".padStart(10)} ${"via pod".padStart(10)} ${"unit".padEnd(6)} ${"ratio".padStart(8)}`,
    );
    for (const line of results) console.log(line);
    console.log("ratio: how many times slower than the direct TCP connection (throughput and latency alike)");
    await forward.close();
    await kube.close();
  } finally {
    await target.stop();
    endpoint.server.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
