/**
 * What the replay row's client can take: a bare Node HTTPS server (no API server behind it) sends
 * a watch body of `BENCH_CEILING_EVENTS` ConfigMap ADDED events, shaped like the replay row's
 * (chunked, `BENCH_CEILING_BATCH` bytes per write, waiting for drain as the reference does), to the
 * row's own reader (watch-replay-raw.ts), server and client in this one process. If this is far
 * faster than the reference's 1-watcher row, the row measures the reference, not the client.
 * Usage: pnpm bench:watch:ceiling
 */
import { createServer } from "node:https";
import { createCertificateAuthority } from "@kubesdk/server/testing";
import { percentile } from "./stats.js";
import { countRaw, openRaw } from "./watch-replay-raw.js";

const events = Number(process.env.BENCH_CEILING_EVENTS ?? 5000);
const batch = Number(process.env.BENCH_CEILING_BATCH ?? 16384);
const rounds = Number(process.env.BENCH_ROUNDS ?? 12);

function eventLine(i: number): string {
  const metadata = {
    name: `cm-${i}`,
    namespace: "bench-replay",
    uid: "0b8f4c8e-7d6a-4c1b-9e1a-2f3b4c5d6e7f",
    resourceVersion: String(100000 + i),
    creationTimestamp: "2026-12-07T00:00:00Z",
    labels: { app: "bench", shard: String(i % 10) },
    managedFields: [
      {
        manager: "undici",
        operation: "Update",
        apiVersion: "v1",
        time: "2026-12-07T00:00:00Z",
        fieldsType: "FieldsV1",
        fieldsV1: {
          "f:data": { ".": {}, "f:key": {}, "f:other": {} },
          "f:metadata": { "f:labels": { ".": {}, "f:app": {}, "f:shard": {} } },
        },
      },
    ],
  };
  const object = {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata,
    data: { key: `value-${i}`, other: "x".repeat(100) },
  };
  return `${JSON.stringify({ type: "ADDED", object })}\n`;
}

const body = Buffer.from(Array.from({ length: events }, (_, i) => eventLine(i)).join(""));
const ca = createCertificateAuthority();
const serving = ca.issue({ commonName: "localhost", ipAddresses: ["127.0.0.1"], usage: "server" });
const server = createServer({ key: serving.keyPem, cert: serving.certPem }, (req, res) => {
  req.socket.on("error", () => {}); // the reader closes once it counted every event
  res.writeHead(200, { "content-type": "application/json" });
  let at = 0;
  const pump = () => {
    while (at < body.length) {
      const end = Math.min(at + batch, body.length);
      const more = res.write(body.subarray(at, end));
      at = end;
      if (!more) return void res.once("drain", pump);
    }
  };
  pump();
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const { port } = server.address() as { port: number };
const walls: number[] = [];
const cpus: number[] = [];
for (let r = 0; r < rounds; r++) {
  const socket = await openRaw(`https://127.0.0.1:${port}`, ca.certPem);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await countRaw(socket, {
    host: `127.0.0.1:${port}`,
    path: "/watch",
    authorization: "Bearer -",
    events,
    checkLast: () => {},
  });
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
