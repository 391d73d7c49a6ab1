/**
 * Isolation benchmark: how much one client's limit-sized requests slow another client's small GET
 * on the reference server. Phases (each --seconds long, default 8): idle, then one heavy client in
 * a loop sending 3 MiB JSON bodies, a 40k-key YAML apply, 10k-operation JSON patches, or listing
 * 100k ConfigMaps as protobuf and JSON, or creating a CRD with a 60k-value enum or 20k properties
 * (isolation-crds.ts), or creating ConfigMaps that a webhook answering after 500 ms must admit
 * (isolation-webhook.ts), or creating custom resources that an expensive CEL rule checks, or reading
 * custom resources through a conversion webhook answering after 500 ms (isolation-admission.ts), or
 * creating ConfigMaps that a ValidatingAdmissionPolicy checks with eight expensive validations
 * (isolation-policy.ts), or creating ConfigMaps that eight expensive webhook matchConditions
 * select (isolation-conditions.ts). Reports per phase the small GET's p50/p99, p99 as a ratio
 * to the idle p99, and the server's longest event-loop block (perf_hooks.monitorEventLoopDelay,
 * measured in the server's own process), in wall time and in CPU time of the server's main thread
 * (Linux only; wall time also counts the time a busy machine did not run the server at all).
 *
 *   pnpm bench:isolation [--seconds 8] [--items 100000] [--only CRD]   (--only: phases whose name has it)
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Agent } from "undici";
import { expensiveCelRule, slowConversionWebhook } from "./isolation-admission.js";
import { expensiveConditions } from "./isolation-conditions.js";
import { largeCrds } from "./isolation-crds.js";
import { expensivePolicy } from "./isolation-policy.js";
import { slowWebhook } from "./isolation-webhook.js";
import { percentile } from "./stats.js";

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const SECONDS = arg("seconds", 8);
const ONLY = process.argv.includes("--only") ? String(process.argv[process.argv.indexOf("--only") + 1]) : "";
const ITEMS = arg("items", 100_000);
const MiB = 1024 * 1024;
const NS = "iso";
const BIG_NS = "iso-big";

interface Child {
  url: string;
  ca: string;
  token: string;
}

const child = fork(fileURLToPath(new URL("./isolation-server-child.ts", import.meta.url)), [], {
  execArgv: ["--conditions=source", "--import", "tsx"],
});
const nextMessage = <T>(): Promise<T> =>
  new Promise((resolve) => child.once("message", (m) => resolve(m as T)));
const info = await nextMessage<Child>();
const agent = new Agent({ connect: { ca: info.ca }, connections: 8 });

async function call(
  method: string,
  path: string,
  body?: string | Buffer,
  contentType?: string,
  accept?: string,
) {
  const headers: Record<string, string> = { authorization: `Bearer ${info.token}` };
  if (contentType) headers["content-type"] = contentType;
  if (accept) headers.accept = accept;
  const res = await agent.request({ origin: info.url, path, method: method as "GET", headers, body });
  await res.body.arrayBuffer();
  return res.statusCode;
}

interface Heavy {
  readonly name: string;
  readonly send: () => Promise<number>;
}

function heavyRequests(): Heavy[] {
  const cms = `/api/v1/namespaces/${NS}/configmaps`;
  // ~3 MiB of JSON: many small keys (the costly shape to parse), refused only after decoding.
  const bigData: Record<string, string> = {};
  for (let i = 0; i * 42 < 3 * MiB - 4096; i++) bigData[`key-${String(i).padStart(6, "0")}`] = "v".repeat(26);
  const bigJson = JSON.stringify({ metadata: { name: "big" }, revision: 1, data: bigData });
  const yamlLines = ["apiVersion: v1", "kind: ConfigMap", "metadata:", "  name: applied", "data:"];
  for (let i = 0; i < 40_000; i++) yamlLines.push(`  k${i}: v${i}`);
  const yaml = `${yamlLines.join("\n")}\n`;
  const ops = Array.from({ length: 10_000 }, (_, i) => ({ op: "add", path: `/data/p${i}`, value: "x" }));
  const patch = JSON.stringify(ops);
  return [
    {
      name: "3 MiB JSON bodies",
      send: () =>
        call(
          "POST",
          `/apis/apps/v1/namespaces/${NS}/controllerrevisions?dryRun=All`,
          bigJson,
          "application/json",
        ),
    },
    {
      name: "40k-key YAML apply",
      send: () =>
        call("PATCH", `${cms}/applied?fieldManager=bench&dryRun=All`, yaml, "application/apply-patch+yaml"),
    },
    {
      name: "10k-op JSON patch",
      send: () => call("PATCH", `${cms}/small?dryRun=All`, patch, "application/json-patch+json"),
    },
    {
      name: `protobuf list of ${ITEMS / 1000}k`,
      send: () =>
        call(
          "GET",
          `/api/v1/namespaces/${BIG_NS}/configmaps`,
          undefined,
          undefined,
          "application/vnd.kubernetes.protobuf",
        ),
    },
    {
      name: `JSON list of ${ITEMS / 1000}k`,
      send: () =>
        call("GET", `/api/v1/namespaces/${BIG_NS}/configmaps`, undefined, undefined, "application/json"),
    },
  ];
}

interface PhaseResult {
  name: string;
  gets: number;
  heavy: number;
  heavyCodes: string;
  p50: number;
  p99: number;
  maxBlockMs: number;
  maxCpuBlockMs: number | undefined;
}

async function phase(name: string, heavy: Heavy | undefined): Promise<PhaseResult> {
  child.send({ type: "delay" });
  await nextMessage();
  const end = performance.now() + SECONDS * 1000;
  const latencies: number[] = [];
  const codes = new Map<number, number>();
  let heavyCount = 0;
  const heavyLoop = async () => {
    while (heavy && performance.now() < end) {
      const code = await heavy.send();
      codes.set(code, (codes.get(code) ?? 0) + 1);
      heavyCount++;
    }
  };
  const getLoop = async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      await call("GET", `/api/v1/namespaces/${NS}/configmaps/small`);
      latencies.push(performance.now() - t0);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  await Promise.all([heavyLoop(), getLoop()]);
  child.send({ type: "delay" });
  const delay = await nextMessage<{ maxMs: number; maxCpuMs?: number }>();
  latencies.sort((a, b) => a - b);
  return {
    name,
    gets: latencies.length,
    heavy: heavyCount,
    heavyCodes: [...codes].map(([c, n]) => `${c}×${n}`).join(" "),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    maxBlockMs: delay.maxMs,
    maxCpuBlockMs: delay.maxCpuMs,
  };
}

async function main(): Promise<void> {
  for (const ns of [NS, BIG_NS])
    await call("POST", "/api/v1/namespaces", JSON.stringify({ metadata: { name: ns } }), "application/json");
  await call(
    "POST",
    `/api/v1/namespaces/${NS}/configmaps`,
    JSON.stringify({ metadata: { name: "small" }, data: { a: "b" } }),
    "application/json",
  );
  child.send({ type: "seed", namespace: BIG_NS, count: ITEMS });
  await nextMessage();
  const results = [await phase("idle", undefined)];
  const heavies = [...heavyRequests(), ...largeCrds(call)].filter((h) => h.name.includes(ONLY));
  for (const heavy of heavies) results.push(await phase(heavy.name, heavy));
  // Phases with their own setup and teardown (a webhook server, a CRD); --only matches their key.
  const withSetup = [
    ["slow webhook", slowWebhook],
    ["CEL rule", expensiveCelRule],
    ["slow conversion", slowConversionWebhook],
    ["policy", expensivePolicy],
    ["webhook conditions", expensiveConditions],
  ] as const;
  for (const [key, start] of withSetup) {
    if (!key.includes(ONLY)) continue;
    const running = await start(call);
    try {
      results.push(await phase(running.name, running));
    } finally {
      await running.close();
    }
  }
  const idle = results[0] as PhaseResult;
  console.log(
    `isolation: small GET latency while another client sends limit-sized requests (${SECONDS} s each)`,
  );
  console.log(
    "phase                      GETs  heavy (codes)          p50 ms  p99 ms  p99/idle  max block ms  (CPU ms)",
  );
  for (const r of results)
    console.log(
      `${r.name.padEnd(26)} ${String(r.gets).padStart(5)}  ${`${r.heavy} (${r.heavyCodes})`.padEnd(21)} ${r.p50.toFixed(1).padStart(7)} ${r.p99.toFixed(1).padStart(7)} ${(r.p99 / idle.p99).toFixed(1).padStart(9)} ${r.maxBlockMs.toFixed(0).padStart(13)} ${(r.maxCpuBlockMs?.toFixed(0) ?? "-").padStart(9)}`,
    );
}

try {
  await main();
} finally {
  await agent.close();
  child.send({ type: "stop" });
}
