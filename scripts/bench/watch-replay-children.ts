/**
 * The replay rows' client processes behind one shape (watch-replay.ts drives them): the Node
 * reader (watch-replay-client.ts, forked, messages over IPC) or the Go reader (watch-replay-go/,
 * JSON lines over stdin/stdout). Both take {setup}, answer "ready", take "go" and answer {done}
 * or {failed}.
 *
 * BENCH_REPLAY_READER picks the HTTP/1.1 rows' reader: "go" (default) or "node"; HTTP/2 rows always
 * use the Node reader (undici). BENCH_REPLAY_GO_PROCS: the Go reader's process count (default 1;
 * each process reads its watches on goroutines, GOMAXPROCS from the environment).
 */
import { type ChildProcess, fork } from "node:child_process";
import { EventEmitter } from "node:events";
import { fileURLToPath } from "node:url";
import { type BenchChild, goChild } from "./bench-child.js";
import { goReaderBinary } from "./watch-replay-go.js";

const nodeClientScript = fileURLToPath(new URL("./watch-replay-client.ts", import.meta.url));

export type ReplayReader = "go" | "node";

class ReplayReaderError extends Error {
  override readonly name = "ReplayReaderError";
  readonly code = "BENCH_REPLAY_READER";
}

/** The reader of a row: Node for HTTP/2, else BENCH_REPLAY_READER's. */
export function replayReader(http2: boolean): ReplayReader {
  const chosen = process.env.BENCH_REPLAY_READER ?? "go";
  if (chosen !== "go" && chosen !== "node") {
    throw new ReplayReaderError(`BENCH_REPLAY_READER must be "go" or "node", not ${JSON.stringify(chosen)}`);
  }
  return http2 ? "node" : chosen;
}

/** How many processes a row's `watchers` are spread over, for this reader. */
export function replayProcesses(reader: ReplayReader, nodeClients: number, watchers: number): number {
  const wanted = reader === "go" ? Number(process.env.BENCH_REPLAY_GO_PROCS ?? 1) : nodeClients;
  if (!Number.isInteger(wanted) || wanted < 1) {
    throw new ReplayReaderError(`the replay's process count must be a positive integer, not ${wanted}`);
  }
  return Math.min(wanted, watchers);
}

function nodeChild(): BenchChild {
  const child: ChildProcess = fork(nodeClientScript, [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const events = new EventEmitter();
  child.on("message", (m) => events.emit("message", m));
  child.once("exit", () => events.emit("exit"));
  return Object.assign(events, {
    send: (message: unknown) => void child.send(message as string),
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill();
    },
  });
}

/** `count` client processes of `reader`, started (the Go reader built first if needed). */
export function startReplayChildren(reader: ReplayReader, count: number): BenchChild[] {
  const bin = reader === "go" ? goReaderBinary() : undefined;
  return Array.from({ length: count }, () => (bin === undefined ? nodeChild() : goChild(bin)));
}
