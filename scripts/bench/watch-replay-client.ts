/**
 * One Node client process of the replay fan-out (watch-replay-children.ts forks several for the
 * HTTP/2 rows, and for the HTTP/1.1 ones with BENCH_REPLAY_READER=node; by default those are read
 * by the Go reader, watch-replay-go/, with the same contract): it holds `watchers`
 * connections open, and on "go" opens a JSON watch on each of them from the same resourceVersion,
 * counts each stream's lines (one per event) without parsing them, and once a stream has its
 * `events` lines, parses only the last one and checks it is the ADDED of the last object written
 * (so a server cannot finish early by sending fewer or other events). It reports its own CPU time
 * over the phase, so the parent can show that the clients were not the bottleneck.
 *
 * HTTP/1.1 watches are read on bare TLS sockets (watch-replay-raw.ts), far cheaper than undici's
 * client, by a reader warmed up before the clock (watch-replay-bare.ts); HTTP/2 ones through undici.
 *
 * Messages: parent → {setup: ReplaySetup}, then "go"; child → "ready", then {done: ReplayDone}
 * or {failed: string}.
 */
import type { TLSSocket } from "node:tls";
import { Client } from "undici";
import { warmReader } from "./watch-replay-bare.js";
import { countRaw, openRaw } from "./watch-replay-raw.js";

export interface ReplaySetup {
  readonly url: string;
  readonly ca: string;
  readonly token: string;
  readonly http2: boolean;
  /** Watch path with its query (resourceVersion, labelSelector). */
  readonly path: string;
  readonly watchers: number;
  /** Lines each stream must carry. */
  readonly events: number;
  /** metadata.resourceVersion of the last event's object. */
  readonly lastResourceVersion: string;
}

export interface ReplayDone {
  /** Client CPU (user + system) from "go" to the last stream's last event, µs. */
  readonly cpuMicros: number;
  /** Wall time of the same span in this process, ms. */
  readonly wallMs: number;
  /** Body bytes received over all streams. */
  readonly bytes: number;
}

const send = (message: unknown) => process.send?.(message);

class ReplayError extends Error {
  override readonly name = "ReplayError";
  readonly code = "BENCH_REPLAY_FAILED";
}

/** Counts one stream's lines; resolves with its byte count once `setup.events` lines arrived, checked. */
function countStream(setup: ReplaySetup, client: Client, auth: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    void (async () => {
      const res = await client.request({
        method: "GET",
        path: setup.path,
        headers: { ...auth, accept: "application/json" },
      });
      if (res.statusCode !== 200) throw new ReplayError(`watch answered ${res.statusCode}`);
      let lines = 0;
      let bytes = 0;
      /** The bytes of the line not yet ended when the current chunk arrived. */
      let carry: Buffer = Buffer.alloc(0);
      const body = res.body;
      body.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        let start = 0;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) {
          if (++lines === setup.events) {
            const last =
              start === 0 ? Buffer.concat([carry, chunk.subarray(0, i)]) : chunk.subarray(start, i);
            body.destroy();
            try {
              checkLast(setup, last);
              resolve(bytes);
            } catch (e) {
              reject(e);
            }
            return;
          }
          start = i + 1;
        }
        carry = start === 0 ? Buffer.concat([carry, chunk]) : chunk.subarray(start);
      });
      body.on("error", (e: Error) => reject(e));
      body.on("end", () => reject(new ReplayError(`stream ended after ${lines} of ${setup.events} events`)));
    })().catch(reject);
  });
}

function checkLast(setup: ReplaySetup, line: Buffer): void {
  const event = JSON.parse(line.toString("utf8")) as {
    type?: string;
    object?: { metadata?: { resourceVersion?: string } };
  };
  const rv = event.object?.metadata?.resourceVersion;
  if (event.type !== "ADDED" || rv !== setup.lastResourceVersion) {
    throw new ReplayError(
      `last event is ${event.type} at ${rv}, expected ADDED at ${setup.lastResourceVersion}`,
    );
  }
}

/**
 * HTTP/2: one undici connection for all of this process's watches, opened before the clock starts
 * with a request (TLS handshakes are not delivery).
 */
async function connect(setup: ReplaySetup, auth: Record<string, string>): Promise<Client> {
  const client = new Client(setup.url, {
    connect: { ca: setup.ca, timeout: 60_000 },
    keepAliveTimeout: 60_000,
    keepAliveMaxTimeout: 60_000,
    allowH2: true,
    maxConcurrentStreams: setup.watchers,
  });
  const res = await client.request({ method: "GET", path: "/version", headers: auth });
  await res.body.text();
  return client;
}

/**
 * HTTP/1.1: one TLS connection per watch, handshakes done before the clock, a few at a time:
 * hundreds of handshakes at once only time the server's handshake queue out.
 */
async function connectRaw(setup: ReplaySetup): Promise<TLSSocket[]> {
  const sockets: TLSSocket[] = [];
  let opened = 0;
  const opener = async () => {
    while (opened < setup.watchers) {
      opened++;
      sockets.push(await openRaw(setup.url, setup.ca));
    }
  };
  await Promise.all(Array.from({ length: Math.min(setup.watchers, 16) }, opener));
  return sockets;
}

/** The streams' promises once "go" came: raw sockets for HTTP/1.1, undici for HTTP/2. */
async function prepare(
  setup: ReplaySetup,
): Promise<{ start: () => Promise<number>[]; close: () => Promise<unknown> }> {
  const auth = { authorization: `Bearer ${setup.token}` };
  if (setup.http2) {
    const client = await connect(setup, auth);
    return {
      start: () => Array.from({ length: setup.watchers }, () => countStream(setup, client, auth)),
      close: () => client.destroy(),
    };
  }
  const sockets = await connectRaw(setup);
  const w = {
    host: new URL(setup.url).host,
    path: setup.path,
    authorization: auth.authorization,
    events: setup.events,
    checkLast: (line: Buffer) => checkLast(setup, line),
  };
  return {
    start: () => sockets.map((socket) => countRaw(socket, w)),
    close: async () => {
      for (const socket of sockets) socket.destroy();
    },
  };
}

async function run(setup: ReplaySetup): Promise<void> {
  // The reader's first run is interpreted and then compiled while it reads; against the
  // reference's one-watcher row that was 8.5–13.8 ms of this process's CPU for 5,000 events, on the
  // same two cores the server uses. Warmed on a bare server of this process first, the row times
  // the server (BENCH_REPLAY_COLD_CLIENT=1: the reader starts cold, as before).
  if (!setup.http2 && process.env.BENCH_REPLAY_COLD_CLIENT !== "1") await warmReader();
  const streamsOf = await prepare(setup);
  process.once("message", (message) => {
    if (message !== "go") return;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const streams = streamsOf.start();
    Promise.all(streams)
      .then((perStream) => {
        const wallMs = performance.now() - t0;
        const cpu = process.cpuUsage(cpu0);
        const done: ReplayDone = {
          cpuMicros: cpu.user + cpu.system,
          wallMs,
          bytes: perStream.reduce((a, b) => a + b, 0),
        };
        send({ done });
      })
      .catch((e: unknown) => send({ failed: e instanceof Error ? e.message : String(e) }))
      .finally(() => void streamsOf.close().finally(() => process.disconnect()));
  });
  send("ready");
}

process.once("message", (message) => {
  const setup = (message as { setup?: ReplaySetup }).setup;
  if (setup === undefined) return;
  run(setup).catch((e: unknown) => {
    send({ failed: e instanceof Error ? e.message : String(e) });
    process.disconnect();
  });
});
