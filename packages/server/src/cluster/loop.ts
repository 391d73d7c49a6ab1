/**
 * One work loop per simulated component: keys are queued (at once or after a delay), each key is
 * synced by one call at a time, and a key queued while it syncs is synced again afterwards, as
 * client-go's work queue does. A sync that fails with a Status (a conflict, a write that lost a race)
 * is retried after a short pause; its next run reads the store again.
 */
import { StatusError } from "../api/status.js";

const RETRY_MS = 20;

export class WorkLoop {
  private readonly queued = new Set<string>();
  private readonly running = new Set<string>();
  private readonly again = new Set<string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
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
      const t = setTimeout(() => {
        this.timers.delete(key);
        this.add(key);
      }, delayMs);
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
    } catch (e) {
      if (!(e instanceof StatusError)) this.log?.(`simulated cluster: ${key}: ${(e as Error).stack ?? e}`);
      this.add(key, RETRY_MS);
    } finally {
      this.running.delete(key);
      if (this.again.delete(key)) this.add(key);
    }
  }
}
