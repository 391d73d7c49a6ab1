/**
 * A benchmark's client process behind one shape: it emits "message" (each parsed message) and
 * "exit" (after its last message), takes messages with send(), and ends with stop(). goChild runs a
 * Go load generator (go-program.ts) speaking JSON lines over stdin/stdout; watch-replay-children.ts
 * also wraps its forked Node reader in this shape.
 */
import { spawn } from "node:child_process";
import { EventEmitter } from "node:events";
import { createInterface } from "node:readline";

export interface BenchChild extends EventEmitter {
  send(message: unknown): void;
  /** Ends the process if it is still running. */
  stop(): void;
}

class BenchChildError extends Error {
  override readonly name = "BenchChildError";
  readonly code = "BENCH_CHILD_EXITED";
}

/** The child's next message; rejects if the child exits first. */
export function nextMessage(child: BenchChild): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const onExit = () => reject(new BenchChildError("the benchmark's client process exited early"));
    child.once("exit", onExit);
    child.once("message", (message) => {
      child.off("exit", onExit);
      resolve(message);
    });
  });
}

/** A Go program's process: each stdout line is a message, each message sent a stdin line. */
export function goChild(bin: string): BenchChild {
  const child = spawn(bin, [], { stdio: ["pipe", "pipe", "inherit"] });
  const events = new EventEmitter();
  createInterface({ input: child.stdout }).on("line", (line) => {
    events.emit("message", JSON.parse(line) as unknown);
  });
  // "close", not "exit": the process may exit before its last line was read from the pipe.
  child.once("close", () => events.emit("exit"));
  child.once("error", (e) => events.emit("message", { failed: e.message }));
  child.stdin.on("error", () => {}); // a child that failed and exited: its "failed" line says why
  return Object.assign(events, {
    send: (message: unknown) => void child.stdin.write(`${JSON.stringify(message)}\n`),
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill();
    },
  });
}
