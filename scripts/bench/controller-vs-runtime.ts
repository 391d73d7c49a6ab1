/**
 * kubesdk's controller against controller-runtime's on one workload: BENCH_OBJECTS (default 5000)
 * Widget custom resources in one namespace, each reconciled once by a merge patch of its status
 * (controller-runtime-go/main.go and controller-vs-runtime-child.mjs do the same work, each in its
 * own process, at BENCH_CONCURRENCY workers, default 1 as both libraries default to). Each side of
 * each of BENCH_ROUNDS rounds (default 3) gets a fresh server in its own process (the reference
 * server; BENCH_TARGET=real: kube-apiserver + etcd from ~/.cache/kubesdk/real-apiserver), seeded
 * the same way. Reported per side: peak RSS (VmHWM of the controller process at convergence) and
 * time to converge (from the program's start, after module loading, until every object's status
 * was written); then the kubesdk / controller-runtime ratio of each, as the median of the rounds'
 * ratios with their range. No assertions: it prints a table.
 *
 * The Go program is built on first use (module proxy, build cache under ~/.cache/kubesdk).
 * Run: pnpm bench:controller:vs-runtime
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Kube } from "@kubesdk/client";
import { renderKubeconfig } from "@kubesdk/server";
import { type BenchTarget, startReal, startReference } from "./bench-targets.js";
import { NAMESPACE, seedWidgets } from "./widget-workload.js";

const OBJECTS = Number(process.env.BENCH_OBJECTS ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 1);
const TARGET = process.env.BENCH_TARGET ?? "reference";
/** For profiling one side: BENCH_SIDES=kubesdk, and extra node flags for its process. */
const SIDES = (process.env.BENCH_SIDES ?? "kubesdk,controller-runtime").split(",");
const CHILD_NODE_ARGS = (process.env.BENCH_CHILD_NODE_ARGS ?? "").split(" ").filter((a) => a !== "");

interface Sample {
  readonly ms: number;
  readonly peakRssMiB: number;
}
type Side = "kubesdk" | "controller-runtime";

const goDir = fileURLToPath(new URL("./controller-runtime-go/", import.meta.url));
const cacheDir = join(homedir(), ".cache", "kubesdk", "controller-runtime-bench");
const goBin = join(cacheDir, "controller-runtime-bench");

function buildGo(): void {
  const newest = Math.max(...["main.go", "go.sum"].map((f) => statSync(join(goDir, f)).mtimeMs));
  if (existsSync(goBin) && statSync(goBin).mtimeMs > newest) return;
  mkdirSync(cacheDir, { recursive: true });
  console.log("building the controller-runtime program (a cold build takes minutes)...");
  execFileSync("go", ["build", "-trimpath", "-o", `${goBin}.partial`, "."], {
    cwd: goDir,
    stdio: "inherit",
    env: {
      ...process.env,
      CGO_ENABLED: "0",
      GOTOOLCHAIN: "local",
      // Shared with the real kube-apiserver build: the Kubernetes packages compile once.
      GOCACHE: join(homedir(), ".cache", "kubesdk", "real-apiserver", "go-build"),
      GOFLAGS: "-mod=readonly -buildvcs=false",
    },
  });
  execFileSync("mv", ["-f", `${goBin}.partial`, goBin]);
}

async function startTarget(): Promise<BenchTarget> {
  if (TARGET !== "real") return startReference();
  const build = fileURLToPath(new URL("../real-apiserver/build.sh", import.meta.url));
  const binDir = execFileSync("bash", [build, "--print-bin-dir"], { encoding: "utf8" }).trim();
  return startReal(binDir);
}

function command(side: Side, kubeconfig: string): [string, string[]] {
  const args = [kubeconfig, NAMESPACE, String(OBJECTS), String(CONCURRENCY)];
  if (side === "controller-runtime") return [goBin, args];
  const child = fileURLToPath(new URL("./controller-vs-runtime-child.mjs", import.meta.url));
  return [process.execPath, [...CHILD_NODE_ARGS, child, ...args]];
}

/** Runs one controller program until it prints its JSON line and exits. */
function runController(side: Side, kubeconfig: string): Promise<Sample> {
  const [file, args] = command(side, kubeconfig);
  const proc = spawn(file, args, { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  proc.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    proc.once("error", reject);
    proc.once("exit", (code) => {
      const line = out.trim().split("\n").at(-1) ?? "";
      if (code !== 0 || !line.startsWith("{")) reject(new Error(`${side} exited ${code}: ${out}`));
      else resolve(JSON.parse(line) as Sample);
    });
  });
}

async function oneRun(side: Side): Promise<Sample> {
  const server = await startTarget();
  try {
    const path = join(mkdtempSync(join(tmpdir(), "controller-vs-runtime-")), "kubeconfig");
    writeFileSync(path, renderKubeconfig({ url: server.url, token: server.token, caPem: server.ca }));
    const kube = await Kube.fromKubeconfig({ kubeconfig: { path } });
    await seedWidgets(kube, OBJECTS);
    await kube.close();
    return await runController(side, path);
  } finally {
    await server.stop();
  }
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const range = (xs: readonly number[], digits: number) =>
  `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;

async function main(): Promise<void> {
  if (SIDES.includes("controller-runtime")) buildGo();
  // The kubesdk side runs the built packages, as a user's controller does (tsc -b: incremental).
  if (SIDES.includes("kubesdk")) execFileSync("pnpm", ["-s", "build"], { stdio: "inherit" });
  console.log(
    `${OBJECTS} Widgets, concurrency ${CONCURRENCY}, ${ROUNDS} rounds, server: ${TARGET}; each reconcile merge-patches status`,
  );
  console.log("round | side               | time (s) | peak RSS (MiB)");
  const samples: Record<Side, Sample[]> = { kubesdk: [], "controller-runtime": [] };
  for (let round = 1; round <= ROUNDS; round++) {
    // Alternate which side goes first, so a machine's drift does not favour one side.
    const order: Side[] =
      round % 2 === 1 ? ["kubesdk", "controller-runtime"] : ["controller-runtime", "kubesdk"];
    for (const side of order.filter((s) => SIDES.includes(s))) {
      const s = await oneRun(side);
      samples[side].push(s);
      console.log(
        `${String(round).padStart(5)} | ${side.padEnd(18)} | ${(s.ms / 1000).toFixed(2).padStart(8)} | ${s.peakRssMiB.toFixed(1).padStart(14)}`,
      );
    }
  }
  if (SIDES.length < 2) return;
  const k = samples.kubesdk;
  const g = samples["controller-runtime"];
  const rssRatios = k.map((s, i) => s.peakRssMiB / (g[i] as Sample).peakRssMiB);
  const timeRatios = k.map((s, i) => s.ms / (g[i] as Sample).ms);
  console.log("\nside               | time (s) median (range) | peak RSS (MiB) median (range)");
  for (const [side, xs] of Object.entries(samples)) {
    const t = xs.map((s) => s.ms / 1000);
    const m = xs.map((s) => s.peakRssMiB);
    console.log(
      `${side.padEnd(18)} | ${median(t).toFixed(2)} (${range(t, 2)})`.padEnd(45) +
        `| ${median(m).toFixed(1)} (${range(m, 1)})`,
    );
  }
  console.log(
    `kubesdk / controller-runtime: peak RSS ${median(rssRatios).toFixed(2)} (rounds ${range(rssRatios, 2)}), ` +
      `time ${median(timeRatios).toFixed(2)} (rounds ${range(timeRatios, 2)})`,
  );
}

await main();
