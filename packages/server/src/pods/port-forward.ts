/**
 * Serves one port-forward WebSocket: for port i, channel 2i carries data and 2i+1 errors, and the
 * first frame on each channel is the port (2 bytes, little-endian). The pod side of a port is the
 * `portForward` hook's stream, or an echo server by default.
 */
import { type Duplex, PassThrough } from "node:stream";
import type { WebSocket } from "ws";
import type { PodRuntime } from "./runtime.js";

function frame(channel: number, payload: Buffer): Buffer {
  return Buffer.concat([Buffer.from([channel]), payload]);
}

function portPrefix(port: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(port);
  return b;
}

export function servePortForward(
  runtime: PodRuntime,
  ws: WebSocket,
  target: { namespace: string; pod: string; ports: readonly number[] },
): void {
  const handle = { close: () => ws.terminate() };
  runtime.open.add(handle);
  const streams: (Duplex | undefined)[] = [];
  const object = runtime.pod(target.namespace, target.pod);
  target.ports.forEach((port, i) => {
    ws.send(frame(2 * i, portPrefix(port)));
    ws.send(frame(2 * i + 1, portPrefix(port)));
    let stream: Duplex | undefined;
    try {
      const hook = runtime.options.portForward;
      stream = hook?.({ namespace: target.namespace, pod: target.pod, object }, port) ?? new PassThrough();
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      const message = `error forwarding port ${port} to pod ${target.pod}: ${why}`;
      ws.send(frame(2 * i + 1, Buffer.from(message)));
      streams.push(undefined);
      return;
    }
    streams.push(stream);
    stream.on("data", (chunk: Buffer) => {
      if (ws.readyState !== ws.OPEN) return;
      if (ws.bufferedAmount > 4 * 1024 * 1024) stream?.pause();
      ws.send(frame(2 * i, chunk), () => {
        if (ws.bufferedAmount < 1024 * 1024) stream?.resume();
      });
    });
    stream.on("end", () => ws.close(1000));
    stream.on("error", (err) => {
      if (ws.readyState === ws.OPEN)
        ws.send(frame(2 * i + 1, Buffer.from(err.message)), () => ws.close(1000));
    });
  });
  ws.on("message", (data: Buffer) => {
    const channel = data[0] ?? 255;
    const stream = channel % 2 === 0 ? streams[channel / 2] : undefined;
    if (stream !== undefined && data.length > 1 && !stream.destroyed) {
      if (!stream.write(data.subarray(1))) ws.pause();
    }
  });
  for (const s of streams) s?.on("drain", () => ws.resume());
  ws.on("error", () => undefined);
  ws.once("close", () => {
    runtime.open.delete(handle);
    for (const s of streams) s?.destroy();
  });
}
