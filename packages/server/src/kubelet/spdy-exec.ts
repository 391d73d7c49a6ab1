/**
 * Exec and attach over SPDY (`v4.channel.k8s.io` and older), as kube-apiserver speaks them to a
 * kubelet when it translates a client's `v5.channel.k8s.io` WebSocket, and as kubectl falls back to.
 * The client opens one stream per channel, named by its `streamtype` header: `error`, then `stdin`,
 * `stdout`, `stderr` (not with a TTY) and `resize` (TTY only) as the request's query asked. Once all
 * are there the process runs; its Status is written to the error stream, then the client closes.
 */
import { EventEmitter } from "node:events";
import { PassThrough, type Readable } from "node:stream";
import { flush, type ProcessSetup, processContext, runProcess, statusOf } from "../pods/process.js";
import type { PodRuntime } from "../pods/runtime.js";
import type { SpdySession, SpdyStream } from "./spdy-session.js";

const STREAM_WAIT_MS = 30_000;
const CLOSE_WAIT_MS = 30_000;

export interface SpdyProcessSetup extends ProcessSetup {
  readonly stdout: boolean;
}

/** Which streams a session must open before the process starts. */
function expectedStreams(setup: SpdyProcessSetup): string[] {
  const types = ["error"];
  if (setup.stdin) types.push("stdin");
  if (setup.stdout) types.push("stdout");
  if (setup.stderr) types.push("stderr");
  if (setup.tty) types.push("resize");
  return types;
}

/** Resize messages are JSON objects `{"Width":…,"Height":…}` back to back on the resize stream. */
function onResizes(stream: Readable, emit: (size: { columns: number; rows: number }) => void): void {
  let text = "";
  stream.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
    for (let end = text.indexOf("}"); end !== -1; end = text.indexOf("}")) {
      const message = text.slice(0, end + 1);
      text = text.slice(end + 1);
      try {
        const size = JSON.parse(message) as { Width: number; Height: number };
        emit({ columns: size.Width, rows: size.Height });
      } catch {
        // A malformed resize is ignored, as the kubelet does.
      }
    }
  });
}

export function serveSpdyProcess(runtime: PodRuntime, session: SpdySession, setup: SpdyProcessSetup): void {
  const expected = expectedStreams(setup);
  const streams = new Map<string, SpdyStream>();
  const handle = { close: () => session.destroy() };
  runtime.open.add(handle);
  const abort = new AbortController();
  const giveUp = setTimeout(() => session.destroy(), STREAM_WAIT_MS);
  giveUp.unref();
  session.once("close", () => {
    clearTimeout(giveUp);
    runtime.open.delete(handle);
    abort.abort();
  });
  session.on("stream", (stream) => {
    const type = stream.headers.streamtype ?? "";
    if (!expected.includes(type) || streams.has(type)) return void stream.destroy();
    streams.set(type, stream);
    if (type !== "stdin" && type !== "resize") stream.resume(); // nothing is read from these
    if (streams.size === expected.length) {
      clearTimeout(giveUp);
      void start(runtime, session, setup, streams, abort.signal);
    }
  });
}

async function start(
  runtime: PodRuntime,
  session: SpdySession,
  setup: SpdyProcessSetup,
  streams: Map<string, SpdyStream>,
  signal: AbortSignal,
): Promise<void> {
  const resizes = new EventEmitter();
  const resize = streams.get("resize");
  if (resize) onResizes(resize, (size) => resizes.emit("resize", size));
  const sink = () => new PassThrough().resume();
  const stdout = streams.get("stdout") ?? sink();
  const stdin = streams.get("stdin") ?? new PassThrough().end();
  const stderr = setup.tty ? stdout : (streams.get("stderr") ?? sink());
  const proc = processContext(runtime, setup, { stdin, stdout, stderr }, resizes, signal);
  const outcome = await runProcess(runtime, setup, proc);
  if (signal.aborted) return;
  await Promise.all([flush(proc.stdout), flush(proc.stderr)]);
  streams.get("stdout")?.end();
  streams.get("stderr")?.end();
  const status = statusOf(outcome);
  // v4 reports success as an empty error stream or a Success Status; both decode the same.
  streams.get("error")?.end(JSON.stringify(status));
  // The client closes the connection once it has read the error stream (closing it here first
  // could drop frames the client still has queued).
  setTimeout(() => session.destroy(), CLOSE_WAIT_MS).unref();
}
