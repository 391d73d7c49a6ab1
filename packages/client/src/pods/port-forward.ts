/**
 * Port-forward over WebSocket: one socket per forwarded TCP connection, ports listed in the query,
 * channel 2i carries port i's data and 2i+1 its errors; the first frame on each channel is the port
 * number (2 bytes, little-endian).
 */

import type { AddressInfo } from "node:net";
import { createServer, type Server, type Socket } from "node:net";
import type WebSocket from "ws";
import { invalidOption, PodIoError } from "./errors.js";

export const PORT_FORWARD_PROTOCOLS = ["v4.channel.k8s.io", "portforward.k8s.io"] as const;

/** A local port and the pod port it forwards to (`local: 0` picks a free port). */
export interface PortMapping {
  readonly local?: number;
  readonly remote: number;
}

export interface PortForwardOptions {
  readonly namespace?: string;
  /** Local address to listen on (default 127.0.0.1). */
  readonly host?: string;
  /** Errors reported by the pod side (e.g. nothing listens on the port); the connection is closed. */
  readonly onError?: (error: PodIoError) => void;
  /** Stops forwarding (like `close()`). */
  readonly signal?: AbortSignal;
}

/** Opens a WebSocket forwarding `remote`; supplied by the pod operations. */
export type StreamOpener = (remote: number) => Promise<WebSocket>;

/** A running forward: local listeners, each connection tunnelled on its own WebSocket. */
export class PortForward {
  readonly ports: readonly { readonly local: number; readonly remote: number }[] = [];
  readonly #servers: Server[] = [];
  readonly #sockets = new Set<Socket>();
  readonly #streams = new Set<WebSocket>();
  readonly #open: StreamOpener;
  readonly #onError: ((error: PodIoError) => void) | undefined;
  #closed = false;

  /** @internal Use `kube.pods.portForward`. */
  constructor(open: StreamOpener, onError?: (error: PodIoError) => void) {
    this.#open = open;
    this.#onError = onError;
  }

  /** @internal */
  async listen(mappings: readonly PortMapping[], host: string): Promise<void> {
    for (const m of mappings) {
      if (!Number.isInteger(m.remote) || m.remote < 1 || m.remote > 65535)
        throw invalidOption(`remote port must be 1..65535, got ${String(m.remote)}`);
      const server = createServer((socket) => this.#accept(socket, m.remote));
      this.#servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(m.local ?? 0, host, () => {
          server.off("error", reject);
          resolve();
        });
      });
      const local = (server.address() as AddressInfo).port;
      (this.ports as { local: number; remote: number }[]).push({ local, remote: m.remote });
    }
  }

  /** Number of TCP connections currently forwarded. */
  get connections(): number {
    return this.#sockets.size;
  }

  /** Stops listening and closes every forwarded connection and its WebSocket. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const socket of this.#sockets) socket.destroy();
    for (const ws of this.#streams) ws.terminate();
    await Promise.all(this.#servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }

  #accept(socket: Socket, remote: number): void {
    if (this.#closed) return void socket.destroy();
    this.#sockets.add(socket);
    socket.once("close", () => this.#sockets.delete(socket));
    socket.pause();
    this.#open(remote).then(
      (ws) => this.#pipe(socket, ws, remote),
      (err: Error) => {
        this.#report(new PodIoError("PORT_FORWARD_FAILED", `port ${remote}: ${err.message}`, { cause: err }));
        socket.destroy();
      },
    );
  }

  #pipe(socket: Socket, ws: WebSocket, remote: number): void {
    if (this.#closed || socket.destroyed) return void ws.terminate();
    this.#streams.add(ws);
    const seen = new Set<number>();
    ws.on("message", (data: Buffer) => {
      const channel = data[0];
      if (channel === undefined) return;
      let payload = data.subarray(1);
      if (!seen.has(channel)) {
        // The first frame on a channel starts with the port number.
        seen.add(channel);
        payload = payload.subarray(2);
      }
      if (payload.length === 0) return;
      if (channel === 0) {
        if (!socket.write(payload)) ws.pause();
      } else if (channel === 1) {
        this.#report(new PodIoError("PORT_FORWARD_FAILED", `port ${remote}: ${payload.toString("utf8")}`));
        socket.destroy();
      }
    });
    socket.on("drain", () => ws.resume());
    socket.on("data", (chunk: Buffer) => {
      const frame = Buffer.allocUnsafe(chunk.length + 1);
      frame[0] = 0;
      chunk.copy(frame, 1);
      if (ws.bufferedAmount > 4 * 1024 * 1024) socket.pause();
      ws.send(frame, { binary: true }, () => {
        if (ws.bufferedAmount < 1024 * 1024 && !this.#closed) socket.resume();
      });
    });
    socket.once("close", () => {
      if (ws.readyState === ws.OPEN) ws.close(1000);
      else if (ws.readyState === ws.CONNECTING) ws.terminate();
    });
    socket.on("error", () => ws.terminate());
    ws.on("error", () => socket.destroy());
    ws.once("close", () => {
      this.#streams.delete(ws);
      socket.end();
    });
    socket.resume();
  }

  #report(error: PodIoError): void {
    this.#onError?.(error);
  }
}
