/**
 * Client-side informer benchmark against a static replay server (see replay-server.ts): the server
 * runs in its own process and only replays bytes encoded before the first request, so the numbers
 * are the clients' own. Contenders (contenders.ts), each in a fresh child process per round,
 * interleaved so drift hits them alike:
 *   raw               one undici request + JSON.parse + a Map; the watch split on newlines by hand
 *   kubesdk           Informer over JSON (client created with protobuf: false), LIST pages of 500, then a watch
 *   kubesdk-unpaged   pageSize 0 (one LIST)
 *   kubesdk-stream    initialList "stream" (a streaming list: ADDED events, then a bookmark)
 *   kubesdk-protobuf  protobuf lists and watch, paged (what an informer does by default where the
 *                     server offers protobuf)
 *   kubesdk-protobuf-stream  a streaming list and watch in protobuf
 *   kubesdk-protobuf-unpaged  pageSize 0 in protobuf (one LIST)
 *   client-node       @kubernetes/client-node makeInformer (one LIST, then a watch)
 * Reported: sync time, peak RSS at synced (getrusage maxRSS), watch events/s into a handler and CPU
 * time per event (user + system of the whole process during the watch phase); medians of the rounds
 * and the spread (max-min over median) of each, ratios against raw and client-node.
 *
 * Flags: --objects=N (default 20000) --events=N (default 100000) --rounds=N (default 3)
 *        --only=a,b (contenders) --cpu-prof=<contender> (writes a .cpuprofile per run to .cache/prof)
 *        --cpu-prof-phase=sync|watch: with --cpu-prof, profiles only that phase (phase-profile.ts)
 *        --node-flags="--trace-deopt ...": extra Node/V8 flags for every contender (diagnostics)
 *        --warmup=N (default 1): rounds run first and not counted. The replay server puts a page
 *        together the first time it is asked for (list-pages.ts), so without them the first paged
 *        contender of a run pays for that work (its first sync took about twice its median).
 *        --baseline=DIR: also runs the kubesdk contenders of another checkout of this repository
 *        (with its dependencies linked and this benchmark copied in), as "base:<contender>", in
 *        the same rounds: before/after numbers from one run. With --dist the baseline's contenders
 *        are compiled in its checkout and run on bare Node too, so both sides run alike.
 *        --dist: contenders load the packages' built dist (run `pnpm build` first) and run on bare
 *        Node, as users run them: contender-process.ts is compiled to JavaScript first (tsc), so no
 *        TypeScript loader and no source-map support is loaded into the measured processes (they
 *        add 25–55 MiB to a contender's RSS, more to client-node's than to kubesdk's). Without it,
 *        contenders compile the packages' TypeScript sources at load (some 80 MB more for kubesdk).
 * The full-size run of the issue: --objects=50000 --events=200000
 */
import { execFileSync, fork } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { percentile } from "../stats.js";
import { CONTENDERS, type Contender, type RunInput, type RunResult, runContender } from "./contenders.js";
import { buildFixtures } from "./fixtures.js";
import { printPaired } from "./paired.js";
import { startReplayServer } from "./replay-server.js";

const self = fileURLToPath(import.meta.url);

function flag(name: string, fallback: string): string {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg === undefined ? fallback : arg.slice(name.length + 3);
}

async function serve(objects: number, events: number): Promise<void> {
  const t0 = performance.now();
  const fixtures = buildFixtures({ objects, events });
  const { url } = await startReplayServer(fixtures);
  const dir = mkdtempSync(join(tmpdir(), "kubesdk-replay-"));
  const kubeconfigPath = join(dir, "kubeconfig");
  writeFileSync(
    kubeconfigPath,
    [
      "apiVersion: v1",
      "kind: Config",
      "current-context: replay",
      `clusters: [{name: replay, cluster: {server: '${url}', insecure-skip-tls-verify: true}}]`,
      "users: [{name: replay, user: {token: replay}}]",
      "contexts: [{name: replay, context: {cluster: replay, user: replay, namespace: bench}}]",
      "",
    ].join("\n"),
  );
  const mb = (b: number) => (b / 1024 / 1024).toFixed(0);
  process.send?.({
    url,
    kubeconfigPath,
    note: `fixtures: list ${mb(fixtures.fullList.json.length)} MB JSON / ${mb(fixtures.fullList.protobuf.length)} MB protobuf, watch ${mb(fixtures.watch.json.length)} MB JSON / ${mb(fixtures.watch.protobuf.length)} MB protobuf, encoded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  });
}

/**
 * Compiles contender-process.ts and what it imports, in the checkout at `root` (this one, or the
 * --baseline one), to JavaScript under its .cache/bench-js; returns the entry's path. The compiled
 * contenders resolve @kubesdk packages from that checkout.
 */
function compileContenders(root: string): string {
  const outDir = join(root, ".cache/bench-js");
  const tsc = resolve("node_modules/.bin/tsc");
  const options = ["--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2023"];
  const more = ["--types", "node", "--skipLibCheck", "--strict", "--rootDir", join(root, "scripts/bench")];
  const entry = join(root, "scripts/bench/informer-replay/contender-process.ts");
  execFileSync(tsc, [...options, ...more, "--outDir", outDir, entry], { stdio: "inherit" });
  return join(outDir, "informer-replay/contender-process.js");
}

/** A child running `script` with Node flags `execArgv`; its first message is the value. */
function child<T>(
  args: string[],
  execArgv: string[],
  script = self,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ value: T; kill: () => void }> {
  const proc = fork(script, args, { stdio: "inherit", execArgv, env });
  return new Promise((resolvePromise, reject) => {
    proc.once("message", (m) => resolvePromise({ value: m as T, kill: () => proc.kill() }));
    proc.once("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}`)));
  });
}

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
const spread = (xs: number[]) => (xs.length < 2 ? 0 : (Math.max(...xs) - Math.min(...xs)) / median(xs));

interface Summary {
  objects: number;
  syncMs: number;
  syncSpread: number;
  syncCpuMs: number;
  peakMiB: number;
  eventsPerSec: number;
  rateSpread: number;
  cpuUsPerEvent: number;
}

function summarize(rs: RunResult[]): Summary {
  const rates = rs.map((r) => (r.events / r.watchMs) * 1000);
  return {
    objects: rs[0]?.objects ?? 0,
    syncMs: median(rs.map((r) => r.syncMs)),
    syncSpread: spread(rs.map((r) => r.syncMs)),
    syncCpuMs: median(rs.map((r) => r.syncCpuMs)),
    peakMiB: median(rs.map((r) => r.syncPeakRssKiB)) / 1024,
    eventsPerSec: median(rates),
    rateSpread: spread(rates),
    cpuUsPerEvent: median(rs.map((r) => r.watchCpuUs / Math.max(1, r.events))),
  };
}

function printTable(results: Map<string, RunResult[]>, rounds: number, input: RunInput): void {
  const s = new Map([...results].map(([c, rs]) => [c, summarize(rs)]));
  const raw = s.get("raw");
  const node = s.get("client-node");
  const ratio = (a: number, b: number | undefined) => (b === undefined ? "-" : (a / b).toFixed(2));
  console.log(
    `\nReplay: ${input.objects} ConfigMaps (~1 KiB), ${input.events} MODIFIED events; median of ${rounds} rounds, a fresh process per run; ± = (max-min)/median\n`,
  );
  const cols: [string, number][] = [
    ["contender", 25],
    ["objects", 8],
    ["sync ms", 9],
    ["±", 5],
    ["×raw", 6],
    ["×c-n", 6],
    ["CPU ms", 8],
    ["×raw", 6],
    ["peak RSS", 10],
    ["×c-n", 6],
    ["events/s", 10],
    ["±", 5],
    ["×raw", 6],
    ["×c-n", 6],
    ["µs CPU/ev", 10],
  ];
  console.log(cols.map(([h, w], i) => (i === 0 ? h.padEnd(w) : h.padStart(w))).join(""));
  for (const [c, v] of s) {
    const cells = [
      c,
      String(v.objects),
      v.syncMs.toFixed(0),
      `${(v.syncSpread * 100).toFixed(0)}%`,
      ratio(v.syncMs, raw?.syncMs),
      ratio(v.syncMs, node?.syncMs),
      v.syncCpuMs.toFixed(0),
      ratio(v.syncCpuMs, raw?.syncCpuMs),
      `${v.peakMiB.toFixed(0)} MiB`,
      ratio(v.peakMiB, node?.peakMiB),
      v.eventsPerSec.toFixed(0),
      `${(v.rateSpread * 100).toFixed(0)}%`,
      ratio(v.eventsPerSec, raw?.eventsPerSec),
      ratio(v.eventsPerSec, node?.eventsPerSec),
      v.cpuUsPerEvent.toFixed(2),
    ];
    console.log(
      cells.map((x, i) => (i === 0 ? x.padEnd(cols[i]?.[1] ?? 0) : x.padStart(cols[i]?.[1] ?? 0))).join(""),
    );
  }
  const k = s.get("kubesdk");
  if (k !== undefined && raw !== undefined && node !== undefined) {
    console.log(`\ngoal: kubesdk (paged) sync ≤ 1.15× raw → ${(k.syncMs / raw.syncMs).toFixed(2)}×`);
    console.log(`goal: kubesdk peak RSS ≤ 0.6× client-node → ${(k.peakMiB / node.peakMiB).toFixed(2)}×`);
    console.log(
      `goal: kubesdk watch ≥ 0.9× raw events/s → ${(k.eventsPerSec / raw.eventsPerSec).toFixed(2)}×`,
    );
  }
}

async function main(): Promise<void> {
  const objects = Number(flag("objects", "20000"));
  const events = Number(flag("events", "100000"));
  const rounds = Number(flag("rounds", "3"));
  const warmup = Number(flag("warmup", "1"));
  const only = flag("only", CONTENDERS.join(",")).split(",") as Contender[];
  const profiled = flag("cpu-prof", "");
  const phase = flag("cpu-prof-phase", "");
  if (phase !== "" && phase !== "sync" && phase !== "watch")
    throw new Error(`--cpu-prof-phase must be sync or watch, not ${phase}`);
  const fromDist = process.argv.includes("--dist");
  const nodeFlags = flag("node-flags", "")
    .split(" ")
    .filter((f) => f !== "");
  // Compiled before the replay server starts: a compile error then leaves no server behind.
  const baseline = flag("baseline", "");
  const compiled = fromDist ? compileContenders(resolve(".")) : undefined;
  const compiledBase = fromDist && baseline !== "" ? compileContenders(resolve(baseline)) : undefined;
  const server = await child<{ url: string; kubeconfigPath: string; note: string }>(
    ["--serve", `--objects=${objects}`, `--events=${events}`],
    process.execArgv,
  );
  console.log(server.value.note);
  const input: RunInput = {
    url: server.value.url,
    kubeconfigPath: server.value.kubeconfigPath,
    objects,
    events,
  };
  const profDir = resolve(".cache/prof");
  if (profiled !== "") mkdirSync(profDir, { recursive: true });
  const baseScript = join(resolve(baseline), "scripts/bench/informer-replay/main.ts");
  // Without --dist, a baseline checkout's contenders run through its own main.ts (TypeScript).
  const viaTsx = fromDist ? process.execArgv.filter((a) => a !== "--conditions=source") : process.execArgv;
  const runs = [
    ...only,
    ...(baseline === "" ? [] : only.filter((c) => c.startsWith("kubesdk")).map((c) => `base:${c}`)),
  ];
  const results = new Map<string, RunResult[]>(runs.map((c) => [c, []]));
  try {
    for (let round = -warmup; round < rounds; round++)
      for (const c of runs) {
        // A whole-process profile, or (--cpu-prof-phase) one of the sync or the watch alone.
        const profiling = round >= 0 && c === profiled;
        const prof = profiling && phase === "" ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`] : [];
        const env =
          profiling && phase !== ""
            ? { ...process.env, KUBESDK_BENCH_PROFILE: `${phase}:${profDir}` }
            : process.env;
        const base = c.startsWith("base:");
        const script = base ? compiledBase : compiled;
        const run =
          script !== undefined
            ? await child<RunResult>(
                [base ? c.slice(5) : c, JSON.stringify(input)],
                ["--expose-gc", ...nodeFlags, ...prof],
                script,
                env,
              )
            : await child<RunResult>(
                [`--contender=${base ? c.slice(5) : c}`, JSON.stringify(input)],
                [...viaTsx, ...nodeFlags, ...prof],
                base ? baseScript : self,
                env,
              );
        if (round < 0) {
          process.stdout.write(`(warm-up) ${c}; `);
          continue;
        }
        results.get(c)?.push(run.value);
        process.stdout.write(
          `${c} ${run.value.syncMs.toFixed(0)} ms / ${((run.value.events / run.value.watchMs) * 1000).toFixed(0)} ev/s; `,
        );
      }
    printTable(results, rounds, input);
    printPaired(results);
  } finally {
    server.kill();
  }
}

const role = process.argv[2] ?? "";
if (role === "--serve") await serve(Number(flag("objects", "0")), Number(flag("events", "0")));
else if (role.startsWith("--contender=")) {
  const result = await runContender(
    role.slice("--contender=".length) as Contender,
    JSON.parse(process.argv[3] as string),
  );
  process.send?.(result, () => process.exit(0));
} else await main();
