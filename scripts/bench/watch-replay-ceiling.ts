/**
 * What the replay row's client can take: a bare Node HTTPS server (no API server behind it) sends
 * a watch body of `BENCH_CEILING_EVENTS` ConfigMap ADDED events, shaped like the replay row's
 * (chunked, `BENCH_CEILING_BATCH` bytes per write, waiting for drain as the reference does), to the
 * row's own reader (watch-replay-raw.ts), server and client in this one process. If this is far
 * faster than the reference's 1-watcher row, the row measures the reference, not the client.
 * Usage: pnpm bench:watch:ceiling
 */
import { percentile } from "./stats.js";
import { eventsBody, openBare, readBare, startBareWatchServer } from "./watch-replay-bare.js";

const events = Number(process.env.BENCH_CEILING_EVENTS ?? 5000);
const batch = Number(process.env.BENCH_CEILING_BATCH ?? 16384);
const rounds = Number(process.env.BENCH_ROUNDS ?? 12);

const body = eventsBody(events);
const server = await startBareWatchServer(body, batch);
const walls: number[] = [];
const cpus: number[] = [];
for (let r = 0; r < rounds; r++) {
  const socket = await openBare(server);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await readBare(server, socket, events);
  walls.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  cpus.push((c.user + c.system) / 1000);
}
server.close();
const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
const wall = median(walls);
console.log(
  `ceiling: ${events} events (${(body.length / 1048576).toFixed(2)} MiB) in ${batch}-byte writes: median ${wall.toFixed(1)} ms ` +
    `[${Math.min(...walls).toFixed(1)}–${Math.max(...walls).toFixed(1)}], ${(events / wall).toFixed(0)}k events/s; ` +
    `server + client CPU ${median(cpus).toFixed(1)} ms; ${rounds} rounds`,
);
