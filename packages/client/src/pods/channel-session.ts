/**
 * One exec or attach stream over the Kubernetes channel protocol (`v5.channel.k8s.io`, falling back
 * to `v4.channel.k8s.io`): byte 0 of every binary message names the channel (0 stdin, 1 stdout,
 * 2 stderr, 3 status, 4 resize; v5 adds 255 "close channel").
 */
import { Readable, Writable } from "node:stream";
import type { metaV1 } from "@kubesdk/models";
import { apiErrorFromStatus, RequestAbortedError } from "@kubesdk/transport";
import type WebSocket from "ws";
import { PodIoError } from "./errors.js";

export const CHANNEL_PROTOCOLS = ["v5.channel.k8s.io", "v4.channel.k8s.io"] as const;
const STDIN = 0;
const STDOUT = 1;
const STDERR = 2;
const STATUS = 3;
const RESIZE = 4;
const CLOSE = 255;

/** How a command finished: exit code 0 for Success, the reported code for NonZeroExitCode. */
export interface ExecResult {
  readonly exitCode: number;
  readonly status: metaV1.Status;
}

export interface TerminalSize {
  readonly columns: number;
  readonly rows: number;
}

export interface SessionSetup {
  readonly stdin: boolean;
  readonly stdout: boolean;
  readonly stderr: boolean;
  readonly tty: boolean;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/**
 * A running command. `done` settles when the command FINISHES: it resolves with the exit code
 * (non-zero exits resolve too) and rejects with an ApiError for a failure status (e.g. the
 * executable was not found), a RequestAbortedError on abort, or a PodIoError when the stream breaks.
 */
export class ExecSession {
  /** The negotiated subprotocol (v4 cannot signal end of stdin). */
  readonly protocol: string;
  readonly stdin: Writable | null;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  readonly done: Promise<ExecResult>;
  readonly #socket: WebSocket;
  readonly #tty: boolean;
  #status: metaV1.Status | undefined;
  #failure: Error | undefined;

  /** @internal Created by the pod operations once the socket is open. */
  constructor(socket: WebSocket, setup: SessionSetup) {
    this.#socket = socket;
    this.#tty = setup.tty;
    this.protocol = socket.protocol;
    this.stdout = setup.stdout ? this.#output() : null;
    this.stderr = setup.stderr && !setup.tty ? this.#output() : null;
    this.stdin = setup.stdin ? this.#input() : null;
    this.done = new Promise<ExecResult>((resolve, reject) => {
      const stopTimer = this.#guard(setup);
      socket.on("message", (data: Buffer) => this.#onMessage(data));
      socket.on("error", (err) => {
        this.#failure ??= new PodIoError("STREAM_CLOSED", `exec stream failed: ${err.message}`, {
          cause: err,
        });
      });
      socket.once("close", () => {
        stopTimer();
        this.stdout?.push(null);
        this.stderr?.push(null);
        this.stdin?.destroy();
        const outcome = this.#outcome();
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      });
    });
    this.done.catch(() => undefined);
  }

  /** Resizes the terminal (TTY sessions only). */
  resize(size: TerminalSize): void {
    if (!this.#tty) throw new PodIoError("STREAM_PROTOCOL_ERROR", "resize needs a TTY session");
    const json = JSON.stringify({ Width: size.columns, Height: size.rows });
    this.#send(RESIZE, Buffer.from(json));
  }

  /** Ends the session now; `done` then rejects unless the command had already finished. */
  close(): void {
    this.#failure ??= new PodIoError("STREAM_CLOSED", "the session was closed before the command finished");
    this.#socket.terminate();
  }

  #guard(setup: SessionSetup): () => void {
    const signal = setup.signal;
    const onAbort = () => {
      this.#failure ??= new RequestAbortedError("the exec stream was aborted", { cause: signal?.reason });
      this.#socket.terminate();
    };
    if (signal?.aborted) queueMicrotask(onAbort);
    else signal?.addEventListener("abort", onAbort, { once: true });
    const timer =
      setup.timeoutMs !== undefined
        ? setTimeout(() => {
            this.#failure ??= new PodIoError(
              "STREAM_TIMEOUT",
              `the command did not finish within ${setup.timeoutMs} ms`,
            );
            this.#socket.terminate();
          }, setup.timeoutMs)
        : undefined;
    return () => {
      signal?.removeEventListener("abort", onAbort);
      if (timer !== undefined) clearTimeout(timer);
    };
  }

  #outcome(): ExecResult | Error {
    const status = this.#status;
    if (status !== undefined) {
      if (status.status === "Success") return { exitCode: 0, status };
      if (status.reason === "NonZeroExitCode") {
        const cause = status.details?.causes?.find((c) => c.reason === "ExitCode");
        const exitCode = Number(cause?.message);
        if (Number.isInteger(exitCode)) return { exitCode, status };
      }
      return apiErrorFromStatus(status as Parameters<typeof apiErrorFromStatus>[0]);
    }
    return (
      this.#failure ??
      new PodIoError("STREAM_CLOSED", "the stream ended without reporting how the command finished")
    );
  }

  #onMessage(data: Buffer): void {
    if (data.length === 0) return;
    const channel = data[0];
    const payload = data.subarray(1);
    if (channel === STDOUT) this.#push(this.stdout, payload);
    else if (channel === STDERR) this.#push(this.stderr, payload);
    else if (channel === STATUS) {
      try {
        this.#status = JSON.parse(payload.toString("utf8")) as metaV1.Status;
      } catch (err) {
        this.#failure ??= new PodIoError("STREAM_PROTOCOL_ERROR", "the status channel carried no Status", {
          cause: err,
        });
      }
    }
  }

  #push(stream: Readable | null, payload: Buffer): void {
    if (stream === null || payload.length === 0) return;
    // Backpressure: stop reading the socket until the consumer drains the stream.
    if (!stream.push(Buffer.from(payload))) this.#socket.pause();
  }

  #output(): Readable {
    return new Readable({ read: () => this.#socket.resume() });
  }

  #input(): Writable {
    return new Writable({
      write: (chunk: Buffer, _encoding, callback) => this.#send(STDIN, chunk, callback),
      final: (callback) => {
        // v5 can tell the command that stdin ended; v4 cannot (the command sees EOF at session end).
        if (this.protocol === CHANNEL_PROTOCOLS[0]) this.#sendRaw(Buffer.from([CLOSE, STDIN]), callback);
        else callback();
      },
    });
  }

  #send(channel: number, payload: Buffer, callback?: (err?: Error | null) => void): void {
    const frame = Buffer.allocUnsafe(payload.length + 1);
    frame[0] = channel;
    payload.copy(frame, 1);
    this.#sendRaw(frame, callback);
  }

  #sendRaw(frame: Buffer, callback?: (err?: Error | null) => void): void {
    // While the stream closes, input is dropped like bytes written to a pipe whose reader exited
    // (`done` reports how the command ended); once closed, stdin is destroyed and writes fail.
    if (this.#socket.readyState !== this.#socket.OPEN) {
      callback?.();
      return;
    }
    this.#socket.send(frame, { binary: true }, (err) => callback?.(err ?? null));
  }
}
