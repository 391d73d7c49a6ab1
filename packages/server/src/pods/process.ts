/** Serves one exec or attach session over the channel protocol. */
import { EventEmitter } from "node:events";
import { PassThrough, Writable } from "node:stream";
import type { WebSocket } from "ws";
import type { PodRuntime } from "./runtime.js";
import { runDefault } from "./shell.js";
import type { ContainerRef, ProcessContext, ProcessOutcome } from "./types.js";

export interface ProcessSetup {
  readonly kind: "exec" | "attach";
  readonly ref: ContainerRef;
  readonly command: readonly string[];
  readonly tty: boolean;
  readonly stdin: boolean;
  readonly stderr: boolean;
}

function channelWriter(ws: WebSocket, channel: number): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (ws.readyState !== ws.OPEN || chunk.length === 0) return callback();
      const frame = Buffer.allocUnsafe(chunk.length + 1);
      frame[0] = channel;
      chunk.copy(frame, 1);
      ws.send(frame, { binary: true }, () => callback());
    },
  });
}

/** The v4/v5 error-channel Status for how a process ended. */
export function statusOf(outcome: ProcessOutcome): Record<string, unknown> {
  const base = { kind: "Status", apiVersion: "v1", metadata: {} };
  if (outcome === 0) return { ...base, status: "Success" };
  if (typeof outcome === "number")
    return {
      ...base,
      status: "Failure",
      message: `command terminated with non-zero exit code: error executing command [...], exit code ${outcome}`,
      reason: "NonZeroExitCode",
      details: { causes: [{ reason: "ExitCode", message: String(outcome) }] },
    };
  return {
    ...base,
    status: "Failure",
    message: `Internal error occurred: error executing command in container: ${outcome.error}`,
    reason: "InternalError",
    details: { causes: [{ message: outcome.error }] },
    code: 500,
  };
}

/** The context a process runs with: the setup's container and command over the given streams. */
export function processContext(
  runtime: PodRuntime,
  setup: ProcessSetup,
  streams: Pick<ProcessContext, "stdin" | "stdout" | "stderr">,
  resizes: EventEmitter,
  signal: AbortSignal,
): ProcessContext {
  return {
    ...setup.ref,
    command: setup.command,
    tty: setup.tty,
    ...streams,
    onResize: (listener) => resizes.on("resize", listener),
    signal,
    files: runtime.files(setup.ref.namespace, setup.ref.pod, setup.ref.container),
  };
}

export function serveProcess(runtime: PodRuntime, ws: WebSocket, setup: ProcessSetup): void {
  const v5 = ws.protocol === "v5.channel.k8s.io";
  const stdin = new PassThrough();
  if (!setup.stdin) stdin.end();
  const resizes = new EventEmitter();
  const abort = new AbortController();
  const handle = { close: () => ws.terminate() };
  runtime.open.add(handle);
  const stdout = channelWriter(ws, 1);
  const stderr = setup.tty ? stdout : setup.stderr ? channelWriter(ws, 2) : new PassThrough().resume();
  const proc = processContext(runtime, setup, { stdin, stdout, stderr }, resizes, abort.signal);
  ws.on("message", (data: Buffer) => {
    const channel = data[0];
    if (channel === 0 && !stdin.writableEnded) stdin.write(data.subarray(1));
    else if (channel === 4) {
      try {
        const size = JSON.parse(data.subarray(1).toString("utf8")) as { Width: number; Height: number };
        resizes.emit("resize", { columns: size.Width, rows: size.Height });
      } catch {
        // A malformed resize is ignored, as the kubelet does.
      }
    } else if (v5 && channel === 255 && data[1] === 0) stdin.end();
  });
  ws.once("close", () => {
    runtime.open.delete(handle);
    abort.abort();
    if (!stdin.writableEnded) stdin.end();
  });
  ws.on("error", () => undefined);
  runProcess(runtime, setup, proc).then(async (outcome) => {
    // Writes are sequential: an empty write completes once everything written before it was sent.
    await Promise.all([flush(proc.stdout), flush(proc.stderr)]);
    if (ws.readyState !== ws.OPEN) return;
    const status = Buffer.from(JSON.stringify(statusOf(outcome)));
    ws.send(Buffer.concat([Buffer.from([3]), status]), { binary: true }, () => ws.close(1000));
  });
}

/** Runs the exec/attach hook, or the default process, to its outcome. */
export async function runProcess(
  runtime: PodRuntime,
  setup: ProcessSetup,
  proc: ProcessContext,
): Promise<ProcessOutcome> {
  try {
    const hook = setup.kind === "exec" ? runtime.options.exec : runtime.options.attach;
    const custom = hook ? await hook(proc) : undefined;
    if (custom !== undefined) return custom;
    if (setup.kind === "attach") return await runDefault({ ...proc, command: ["cat"] });
    return await runDefault(proc);
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

export function flush(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    if ((stream as Writable).writableEnded || (stream as Writable).destroyed) return resolve();
    stream.write(Buffer.alloc(0), () => resolve());
  });
}
