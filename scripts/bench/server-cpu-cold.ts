/**
 * Server CPU per write while V8's JIT is still cold (issue 35): what a user's short test file pays.
 * Each round starts a FRESH reference server process, sends the same 200-request warm-up per verb as
 * server-vs-real.ts, then measures consecutive batches of creates, updates and server-side applies
 * of ConfigMaps at one client (create batch, then update and apply of the same objects), and after
 * BENCH_COLD_WARM more writes of each verb one "sustained" batch. Each figure is µs of the server
 * process's own CPU (user + system) per write; the table gives the median over rounds and the spread.
 *
 * Run: BENCH_SERVER=built pnpm bench:server:cpu:cold
 * Env: BENCH_ROUNDS (4 fresh servers), BENCH_COLD_BATCHES (250,250,500,1000: the cold batch sizes),
 *      BENCH_COLD_WARM (4000 writes of each verb before the sustained batch; 0: none),
 *      BENCH_CPU_PROF (a directory: a V8 CPU profile of each server process, see bench-targets.ts).
 */
import { type BenchHttp, benchHttp } from "./bench-http.js";
import { cmPath, configMap } from "./bench-objects.js";
import { startReference } from "./bench-targets.js";
import { runConcurrent } from "./stats.js";

const rounds = Number(process.env.BENCH_ROUNDS ?? 4);
const batches = (process.env.BENCH_COLD_BATCHES ?? "250,250,500,1000").split(",").map(Number);
const warm = Number(process.env.BENCH_COLD_WARM ?? 4000);
const sustainedBatch = 1000;

type Verb = "create" | "update" | "apply";
const verbs: readonly Verb[] = ["create", "update", "apply"];

function write(http: BenchHttp, verb: Verb, ns: string, i: number): Promise<unknown> {
  const path = `${cmPath(ns)}/cm-${i}`;
  if (verb === "create") return http.call("POST", cmPath(ns), configMap(ns, `cm-${i}`, i));
  if (verb === "update")
    return http.call("PUT", path, { ...configMap(ns, `cm-${i}`, i), data: { key: `u-${i}` } });
  return http.send("PATCH", `${path}?fieldManager=bench&force=true`, {
    body: { ...configMap(ns, `cm-${i}`, i), data: { applied: `a-${i}` } },
    contentType: "application/apply-patch+yaml",
  });
}

const results = new Map<string, number[]>();
const record = (key: string, value: number) => results.set(key, [...(results.get(key) ?? []), value]);

/** Runs `count` writes of each verb on objects from..from+count; records µs of server CPU per write. */
async function batch(
  http: BenchHttp,
  cpu: () => Promise<number>,
  ns: string,
  from: number,
  count: number,
  label?: string,
) {
  for (const verb of verbs) {
    const before = await cpu();
    await runConcurrent(count, 1, async (i) => {
      await write(http, verb, ns, from + i);
    });
    if (label) record(`${verb} ${label}`, ((await cpu()) - before) / count);
  }
}

async function freshServerRound(): Promise<void> {
  const target = await startReference();
  const http = benchHttp(target, { connections: 1 });
  const cpu = target.cpuMicros as () => Promise<number>;
  try {
    for (const name of ["bench-warm", "bench-cold"])
      await http.call("POST", "/api/v1/namespaces", {
        apiVersion: "v1",
        kind: "Namespace",
        metadata: { name },
      });
    await batch(http, cpu, "bench-warm", 0, 200);
    let next = 0;
    for (const size of batches) {
      await batch(http, cpu, "bench-cold", next, size, `writes ${next + 1}–${next + size}`);
      next += size;
    }
    if (warm > 0) {
      await batch(http, cpu, "bench-warm", 200, warm);
      await batch(http, cpu, "bench-cold", next, sustainedBatch, `sustained (+${warm})`);
    }
  } finally {
    await http.close();
    await target.stop();
  }
}

for (let round = 0; round < rounds; round++) await freshServerRound();

console.log(
  `server CPU per write (µs), ${rounds} fresh servers, after 200 warm-up writes per verb (median [min–max])`,
);
for (const [key, values] of results) {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] as number;
  const fmt = (v: number) => v.toFixed(0);
  console.log(
    `${key.padEnd(36)} ${fmt(median).padStart(6)}  [${fmt(sorted[0] as number)}–${fmt(sorted.at(-1) as number)}]`,
  );
}
