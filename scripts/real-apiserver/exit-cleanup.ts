import { rmSync } from "node:fs";

/** Something to tear down if the Node process ends while it is still running. */
export interface ExitCleanup {
  /** Graceful, async teardown (used on SIGINT/SIGTERM/SIGHUP). */
  stop(): Promise<void>;
  /** Synchronous teardown: "exit" listeners cannot await anything. */
  stopNow(): void;
}

const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
const signalNumbers: Record<(typeof signals)[number], number> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

// Process-wide on purpose: exit and signal hooks are per process, and one set
// of listeners must cover every running server. Listeners are only installed
// while something is registered, so a host program's own signal handling is
// untouched the rest of the time.
const live = new Set<ExitCleanup>();

function onExit(): void {
  for (const entry of live) entry.stopNow();
  live.clear();
}

function onSignal(signal: (typeof signals)[number]): void {
  const pending = [...live].map((entry) => entry.stop().catch(() => entry.stopNow()));
  live.clear();
  uninstall();
  void Promise.all(pending).finally(() => process.exit(128 + signalNumbers[signal]));
}

function install(): void {
  process.on("exit", onExit);
  for (const signal of signals) process.on(signal, onSignal);
}

function uninstall(): void {
  process.off("exit", onExit);
  for (const signal of signals) process.off(signal, onSignal);
}

export function registerExitCleanup(entry: ExitCleanup): () => void {
  if (live.size === 0) install();
  live.add(entry);
  return () => {
    if (live.delete(entry) && live.size === 0) uninstall();
  };
}

/** Best-effort synchronous removal for exit handlers. */
export function removeDirNow(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // Exit handlers must not throw; a leftover temp dir is harmless.
  }
}
