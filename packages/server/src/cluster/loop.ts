/**
 * One work loop per simulated component: keys are queued (at once or after a delay), each key is
 * synced by one call at a time, and a key queued while it syncs is synced again afterwards, as
 * client-go's work queue does. A sync that fails (a conflict, a write that lost a race, an object the
 * server refuses) is retried after a pause that doubles with each failure in a row, so that a
 * workload whose pods can never be created costs little; its next run reads the store again.
 */
import { StatusError } from "../api/status.js";

const RETRY_MS = 20;
const MAX_RETRY_MS = 5_000;

/** The longest delay setTimeout keeps (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class WorkLoop {
  private readonly queued = new Set<string>();
  private readonly running = new Set<string>();
  private readonly again = new Set<string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Failures in a row per key (the retry pause doubles with each). */
  private readonly failures = new Map<string, number>();
  private scheduled: NodeJS.Immediate | undefined;
  private closed = false;

  constructor(
    private readonly sync: (key: string) => Promise<void> | void,
    private readonly log?: (line: string) => void,
  ) {}

  /** Syncs `key` soon, or after `delayMs` (an earlier pending delay for the key is replaced). */
  add(key: string, delayMs = 0): void {
    if (this.closed) return;
    if (delayMs > 0) {
      const previous = this.timers.get(key);
      if (previous !== undefined) clearTimeout(previous);
      // Node fires a longer timer at once; waking early is harmless (a sync reschedules itself).
      const t = setTimeout(
        () => {
          this.timers.delete(key);
          this.add(key);
        },
        Math.min(delayMs, MAX_TIMER_MS),
      );
      t.unref();
      this.timers.set(key, t);
      return;
    }
    if (this.running.has(key)) {
      this.again.add(key);
      return;
    }
    this.queued.add(key);
    this.scheduled ??= setImmediate(() => this.drain());
  }

  close(): void {
    this.closed = true;
    if (this.scheduled) clearImmediate(this.scheduled);
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  private drain(): void {
    this.scheduled = undefined;
    const keys = [...this.queued];
    this.queued.clear();
    for (const key of keys) void this.run(key);
  }

  private async run(key: string): Promise<void> {
    if (this.closed) return;
    this.running.add(key);
    try {
      await this.sync(key);
      this.failures.delete(key);
    } catch (e) {
      if (!(e instanceof StatusError)) this.log?.(`simulated cluster: ${key}: ${(e as Error).stack ?? e}`);
      const failures = (this.failures.get(key) ?? 0) + 1;
      this.failures.set(key, failures);
      this.add(key, Math.min(RETRY_MS * 2 ** (failures - 1), MAX_RETRY_MS));
    } finally {
      this.running.delete(key);
      if (this.again.delete(key)) this.add(key);
    }
  }
}
