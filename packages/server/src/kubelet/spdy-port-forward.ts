/**
 * Port-forward over SPDY (`portforward.k8s.io`), as kube-apiserver passes it through to a kubelet
 * and kubectl speaks it (tunnelled in WebSocket messages as `SPDY/3.1+portforward.k8s.io`). Each
 * forwarded connection is a pair of streams with the same `requestid` and `port` headers: `error`
 * (the server writes a message there if the port cannot be reached) and `data` (the bytes).
 */
import { type Duplex, PassThrough } from "node:stream";
import type { PodRuntime } from "../pods/runtime.js";
import type { SpdySession, SpdyStream } from "./spdy-session.js";

interface Pair {
  data?: SpdyStream;
  error?: SpdyStream;
}

export function serveSpdyPortForward(
  runtime: PodRuntime,
  session: SpdySession,
  target: { namespace: string; pod: string },
): void {
  const handle = { close: () => session.destroy() };
  runtime.open.add(handle);
  session.once("close", () => runtime.open.delete(handle));
  const pairs = new Map<string, Pair>();
  session.on("stream", (stream) => {
    const type = stream.headers.streamtype;
    const id = stream.headers.requestid ?? "";
    if (type !== "data" && type !== "error") return void stream.destroy();
    const pair = pairs.get(id) ?? {};
    pair[type] = stream;
    pairs.set(id, pair);
    if (pair.data && pair.error) {
      pairs.delete(id);
      forward(runtime, target, Number(stream.headers.port), pair.data, pair.error);
    }
  });
}

function forward(
  runtime: PodRuntime,
  target: { namespace: string; pod: string },
  port: number,
  data: SpdyStream,
  error: SpdyStream,
): void {
  error.resume(); // the client sends nothing on it
  const fail = (why: string) => {
    if (!error.writableEnded) error.end(`error forwarding port ${port} to pod ${target.pod}: ${why}`);
    data.end();
  };
  let upstream: Duplex;
  try {
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`invalid port ${port}`);
    const object = runtime.pod(target.namespace, target.pod);
    const hook = runtime.options.portForward;
    upstream = hook?.({ namespace: target.namespace, pod: target.pod, object }, port) ?? new PassThrough();
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
    return;
  }
  data.pipe(upstream);
  upstream.pipe(data);
  upstream.on("error", (err) => fail(err.message));
  data.on("close", () => upstream.destroy());
  upstream.on("close", () => {
    if (!error.writableEnded) error.end();
  });
}
