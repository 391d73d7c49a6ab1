/**
 * A bare Node HTTPS server (no API server behind it) that answers every request with one watch
 * body of ConfigMap ADDED events shaped like the replay rows' (chunked, `batch` bytes per write,
 * waiting for drain as the reference does), and the replay rows' reader (watch-replay-raw.ts)
 * reading it. Two uses: the ceiling (watch-replay-ceiling.ts: what the reader can take at all) and
 * the warm-up of each replay client process before the clock (watch-replay-client.ts), so that a
 * row times the server's delivery and not the reader's own first run on a cold JIT.
 */
import { createServer } from "node:https";
import type { TLSSocket } from "node:tls";
import { createCertificateAuthority } from "@kubesdk/server/testing";
import { countRaw, openRaw } from "./watch-replay-raw.js";

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

/** `events` ADDED lines of the bench's ConfigMaps, as one body. */
export function eventsBody(events: number): Buffer {
  return Buffer.from(Array.from({ length: events }, (_, i) => eventLine(i)).join(""));
}

export interface BareWatchServer {
  readonly url: string;
  readonly ca: string;
  close(): void;
}

/** Listens on a free loopback port; every request gets `body`, chunked, `batch` bytes a write. */
export async function startBareWatchServer(body: Buffer, batch: number): Promise<BareWatchServer> {
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
  return { url: `https://127.0.0.1:${port}`, ca: ca.certPem, close: () => void server.close() };
}

/** A connection to `server`, handshake done. */
export function openBare(server: BareWatchServer): Promise<TLSSocket> {
  return openRaw(server.url, server.ca);
}

/** Reads the whole of `events` lines from `server` once over `socket` (closed after). */
export async function readBare(server: BareWatchServer, socket: TLSSocket, events: number): Promise<void> {
  await countRaw(socket, {
    host: new URL(server.url).host,
    path: "/watch",
    authorization: "Bearer -",
    events,
    checkLast: () => {},
  });
}

/**
 * Runs the reader over `rounds` replays of `events` events from a bare server of this process, so
 * its code is compiled and optimised before a row's clock starts; the measured server is not
 * touched.
 */
export async function warmReader(rounds = 4, events = 2000): Promise<void> {
  const server = await startBareWatchServer(eventsBody(events), 16384);
  try {
    for (let r = 0; r < rounds; r++) await readBare(server, await openBare(server), events);
  } finally {
    server.close();
  }
}
