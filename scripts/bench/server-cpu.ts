/**
 * CPU time the reference server spends per request on its hot paths (issue 35): creates, updates,
 * server-side applies and deletes of ConfigMaps at one client, GETs, and whole lists in JSON and
 * protobuf. Wall time on a shared machine says little; the server process's own CPU time (user +
 * system, read over IPC before and after each batch) does, so each figure is µs of server CPU per
 * operation, over several rounds on one warmed-up server, with the median and the spread.
 *
 * Run: pnpm bench:server:cpu
 * Env: BENCH_ROUNDS (5), BENCH_OPS (1000 per write round), BENCH_LIST_SIZE (5000; 0: no lists),
 *      BENCH_LIST_RUNS (10), BENCH_PHASES (create,update,apply,get,delete; a profile of one verb
 *      needs the verbs it depends on), BENCH_CPU_PROF (a directory: a V8 CPU profile of the server),
 *      BENCH_SERVER=built (the server's built JavaScript, as published, instead of its sources
 *      through tsx; needs a fresh `pnpm build`, see built-server.ts).
 */
import { type BenchHttp, benchHttp } from "./bench-http.js";
import { cmPath, configMap } from "./bench-objects.js";
import { startReference } from "./bench-targets.js";
import { runConcurrent } from "./stats.js";

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const rounds = num("BENCH_ROUNDS", 5);
const ops = num("BENCH_OPS", 1000);
const listSize = num("BENCH_LIST_SIZE", 5000);
const listRuns = num("BENCH_LIST_RUNS", 10);

type Phase = (http: BenchHttp, ns: string, i: number) => Promise<unknown>;

const allPhases: Record<string, Phase> = {
  create: (http, ns, i) => http.call("POST", cmPath(ns), configMap(ns, `cm-${i}`, i)),
  update: (http, ns, i) =>
    http.call("PUT", `${cmPath(ns)}/cm-${i}`, { ...configMap(ns, `cm-${i}`, i), data: { key: `u-${i}` } }),
  apply: (http, ns, i) =>
    http.send("PATCH", `${cmPath(ns)}/cm-${i}?fieldManager=bench&force=true`, {
      body: { ...configMap(ns, `cm-${i}`, i), data: { applied: `a-${i}` } },
      contentType: "application/apply-patch+yaml",
    }),
  get: (http, ns, i) => http.call("GET", `${cmPath(ns)}/cm-${i % ops}`),
  delete: (http, ns, i) => http.call("DELETE", `${cmPath(ns)}/cm-${i}`),
};

const chosen = (process.env.BENCH_PHASES ?? Object.keys(allPhases).join(",")).split(",");
const phases = Object.fromEntries(Object.entries(allPhases).filter(([name]) => chosen.includes(name)));

const listAccept = {
  "list json": "application/json",
  "list protobuf": "application/vnd.kubernetes.protobuf",
};

const target = await startReference();
const http = benchHttp(target, { connections: 8 });
const cpu = target.cpuMicros as () => Promise<number>;

/** µs of server CPU per operation for `count` runs of `task` at one client. */
async function measure(count: number, task: (i: number) => Promise<unknown>): Promise<number> {
  gc?.();
  const before = await cpu();
  await runConcurrent(count, 1, async (i) => {
    await task(i);
  });
  return ((await cpu()) - before) / count;
}

async function namespace(name: string): Promise<void> {
  await http.call("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name } });
}

const results = new Map<string, number[]>();
const record = (key: string, value: number) => results.set(key, [...(results.get(key) ?? []), value]);

async function listRound(ns: string, round: number): Promise<void> {
  if (listSize === 0) return;
  for (const [label, accept] of Object.entries(listAccept)) {
    const value = await measure(listRuns, () => http.send("GET", cmPath(ns), { accept }));
    if (round > 0) record(`${label} ${listSize} (µs/list)`, value);
  }
}

try {
  const listNs = "bench-list";
  await namespace(listNs);
  await runConcurrent(listSize, 8, async (i) => {
    await http.call("POST", cmPath(listNs), configMap(listNs, `cm-${i}`, i));
  });
  // Round 0 warms the JIT and is not reported.
  for (let round = 0; round <= rounds; round++) {
    const ns = `bench-r${round}`;
    await namespace(ns);
    for (const [label, phase] of Object.entries(phases)) {
      const value = await measure(ops, (i) => phase(http, ns, i));
      if (round > 0) record(`${label} (µs/op)`, value);
    }
    await listRound(listNs, round);
  }
} finally {
  await http.close();
  await target.stop();
}

console.log(`server CPU per operation, ${rounds} rounds (median [min–max])`);
for (const [key, values] of results) {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] as number;
  const fmt = (v: number) => v.toFixed(0);
  console.log(
    `${key.padEnd(32)} ${fmt(median).padStart(8)}  [${fmt(sorted[0] as number)}–${fmt(sorted.at(-1) as number)}]`,
  );
}
