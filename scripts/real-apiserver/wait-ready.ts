import { setTimeout as delay } from "node:timers/promises";
import { RealApiserverError } from "./errors.js";
import { describeExit, type ManagedProcess } from "./managed-process.js";

/** One readiness check: `true` when ready, else a short note on why not (kept for the error). */
export type ReadinessProbe = () => Promise<true | string>;

export interface WaitReadyOptions {
  process: ManagedProcess;
  probe: ReadinessProbe;
  timeoutMs: number;
  intervalMs?: number;
}

/**
 * Polls `probe` until it reports ready. Neither etcd nor kube-apiserver
 * announces readiness other than through its health endpoint, so polling is
 * the only signal; the loop stops early when the process dies and fails with
 * the tail of its log either way.
 */
export async function waitUntilReady({ process, probe, timeoutMs, intervalMs = 100 }: WaitReadyOptions) {
  const deadline = Date.now() + timeoutMs;
  let lastState = "no probe finished yet";
  for (;;) {
    const exit = process.exitStatus;
    if (exit !== undefined) {
      throw new RealApiserverError(
        "PROCESS_EXITED",
        `${process.name} ${describeExit(exit)} before it was ready; last lines of ${process.logPath}:\n${await process.logTail()}`,
      );
    }
    try {
      const state = await probe();
      if (state === true) return;
      lastState = state;
    } catch (cause) {
      lastState = cause instanceof Error ? cause.message : String(cause);
    }
    if (Date.now() >= deadline) {
      throw new RealApiserverError(
        "NOT_READY",
        `${process.name} not ready after ${timeoutMs} ms (last probe: ${lastState}); last lines of ${process.logPath}:\n${await process.logTail()}`,
      );
    }
    await Promise.race([delay(intervalMs), process.exited]);
  }
}
