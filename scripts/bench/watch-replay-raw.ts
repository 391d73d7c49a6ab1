/**
 * The replay client's HTTP/1.1 watch reader on a bare TLS socket. Hand-written rather than undici
 * because the bench must cost far less than the server it measures: undici's parser (WebAssembly,
 * a copy of every chunk in and out) and body stream made the one client process of the
 * 1-watcher row busier than either server (CPU/wall above 1). This reads the response head,
 * then the chunked body's framing itself and counts the newlines of the data only, as before.
 */
import { connect, type TLSSocket } from "node:tls";

class RawWatchError extends Error {
  override readonly name = "RawWatchError";
  readonly code = "BENCH_REPLAY_FAILED";
}

/** A TLS connection to `url`, handshake done (the handshake is not delivery). */
export function openRaw(url: string, ca: string): Promise<TLSSocket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), ca, timeout: 60_000 });
    socket.once("secureConnect", () => {
      socket.off("error", reject);
      socket.setTimeout(0);
      resolve(socket);
    });
    socket.once("error", reject);
  });
}

export interface RawWatch {
  /** The URL's host (and port), for the Host header. */
  readonly host: string;
  readonly path: string;
  readonly authorization: string;
  /** Lines (events) to count before the stream is closed. */
  readonly events: number;
  /** Checks the last line; throws if it is not the expected event. */
  readonly checkLast: (line: Buffer) => void;
}

/** Body parser state: the chunk-size line, a chunk's data, or the CRLF after it. */
type Phase = "head" | "size" | "data" | "crlf";

/**
 * Sends the watch and counts the body's lines; resolves with the body's data bytes once
 * `events` lines arrived and the last was checked, then closes the connection (as undici's
 * body.destroy() did).
 */
export function countRaw(socket: TLSSocket, w: RawWatch): Promise<number> {
  return new Promise((resolve, reject) => {
    let phase: Phase = "head";
    let head = "";
    let sizeText = "";
    let left = 0;
    let lines = 0;
    let bytes = 0;
    /** The data bytes of the line not yet ended. */
    let parts: Buffer[] = [];
    const fail = (e: unknown) => {
      socket.destroy();
      reject(e);
    };
    const finish = (last: Buffer) => {
      socket.destroy();
      try {
        w.checkLast(last);
        resolve(bytes);
      } catch (e) {
        reject(e);
      }
    };
    /** Counts the lines of `data` (chunk data only); true once the last one was reached. */
    const scan = (data: Buffer): boolean => {
      bytes += data.length;
      let start = 0;
      for (let i = data.indexOf(10); i !== -1; i = data.indexOf(10, i + 1)) {
        if (++lines === w.events) {
          finish(
            parts.length === 0 ? data.subarray(start, i) : Buffer.concat([...parts, data.subarray(start, i)]),
          );
          return true;
        }
        parts = [];
        start = i + 1;
      }
      if (start < data.length) parts.push(data.subarray(start));
      return false;
    };
    const onData = (chunk: Buffer) => {
      let at = 0;
      while (at < chunk.length) {
        if (phase === "head") {
          const text = head + chunk.toString("latin1", at);
          const end = text.indexOf("\r\n\r\n");
          if (end === -1) {
            head = text;
            return;
          }
          if (!/^HTTP\/1\.1 200 /.test(text))
            return fail(new RawWatchError(`watch answered ${text.slice(0, 12)}`));
          if (!/\r\ntransfer-encoding: *chunked\r\n/i.test(text.slice(0, end + 2))) {
            return fail(new RawWatchError("watch response is not chunked"));
          }
          at += end + 4 - head.length;
          phase = "size";
        } else if (phase === "size") {
          const nl = chunk.indexOf(10, at);
          sizeText += chunk.toString("latin1", at, nl === -1 ? chunk.length : nl);
          if (nl === -1) return;
          left = Number.parseInt(sizeText, 16);
          sizeText = "";
          at = nl + 1;
          if (left === 0) return fail(new RawWatchError(`stream ended after ${lines} of ${w.events} events`));
          phase = "data";
        } else if (phase === "data") {
          const end = Math.min(chunk.length, at + left);
          if (scan(chunk.subarray(at, end))) return;
          left -= end - at;
          at = end;
          if (left === 0) phase = "crlf";
        } else {
          const nl = chunk.indexOf(10, at);
          if (nl === -1) return;
          at = nl + 1;
          phase = "size";
        }
      }
    };
    socket.on("data", onData);
    socket.once("error", fail);
    socket.once("end", () =>
      fail(new RawWatchError(`connection ended after ${lines} of ${w.events} events`)),
    );
    socket.write(
      `GET ${w.path} HTTP/1.1\r\nhost: ${w.host}\r\nauthorization: ${w.authorization}\r\naccept: application/json\r\n\r\n`,
    );
  });
}
