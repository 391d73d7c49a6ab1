import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { readFile } from "node:fs/promises";

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * A child process whose stdout and stderr go to a log file (so the log
 * survives a stuck or crashed parent), with a bounded, idempotent stop.
 */
export class ManagedProcess {
  readonly name: string;
  readonly logPath: string;
  /** Settles when the process has exited, for whatever reason. */
  readonly exited: Promise<ProcessExit>;
  private readonly child: ChildProcess;
  private exit: ProcessExit | undefined;
  private stopping: Promise<void> | undefined;

  constructor(name: string, command: string, args: readonly string[], logPath: string) {
    this.name = name;
    this.logPath = logPath;
    const logFd = openSync(logPath, "a");
    try {
      this.child = spawn(command, args, { stdio: ["ignore", logFd, logFd] });
    } finally {
      closeSync(logFd); // the child holds its own copy
    }
    this.exited = new Promise((resolve) => {
      // "error" covers a spawn that never started (e.g. ENOENT); "exit" everything else.
      this.child.once("error", () => resolve(this.recordExit({ code: null, signal: null })));
      this.child.once("exit", (code, signal) => resolve(this.recordExit({ code, signal })));
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The exit status once the process has exited, else undefined. */
  get exitStatus(): ProcessExit | undefined {
    return this.exit;
  }

  /** SIGTERM, then SIGKILL if the process is still alive after `graceMs`. */
  stop(graceMs: number): Promise<void> {
    this.stopping ??= this.terminate(graceMs);
    return this.stopping;
  }

  /** Synchronous last resort for process "exit" handlers, where nothing async runs. */
  killNow(): void {
    if (this.exit === undefined) this.child.kill("SIGKILL");
  }

  async logTail(lines = 40): Promise<string> {
    try {
      const text = (await readFile(this.logPath, "utf8")).trimEnd();
      return text === "" ? "(log is empty)" : text.split("\n").slice(-lines).join("\n");
    } catch {
      return `(no log at ${this.logPath})`;
    }
  }

  private recordExit(exit: ProcessExit): ProcessExit {
    this.exit ??= exit;
    return this.exit;
  }

  private async terminate(graceMs: number): Promise<void> {
    if (this.exit !== undefined) return;
    this.child.kill("SIGTERM");
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), graceMs);
    });
    const outcome = await Promise.race([this.exited, graceOver]);
    clearTimeout(timer);
    if (outcome === "timeout") {
      this.child.kill("SIGKILL");
      await this.exited;
    }
  }
}

export function describeExit(exit: ProcessExit): string {
  return exit.signal !== null ? `killed by ${exit.signal}` : `exited with code ${exit.code ?? "unknown"}`;
}
