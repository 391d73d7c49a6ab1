/** The callers of `waitForSync()` still waiting: each settles once, on sync, stop, timeout or abort. */
import { SyncAbortedError, SyncTimeoutError } from "./errors.js";
import { count } from "./options.js";

export interface WaitForSyncOptions {
  readonly signal?: AbortSignal;
  /** Reject with SyncTimeoutError after this many ms (default: wait as long as it takes). */
  readonly timeoutMs?: number;
}

interface Waiter {
  resolve(): void;
  reject(err: Error): void;
}

export class SyncWaiters {
  readonly #waiters = new Set<Waiter>();

  /** A promise settled by {@link resolveAll}, {@link rejectAll}, the timeout or the signal. */
  wait(options: WaitForSyncOptions): Promise<void> {
    const { signal, timeoutMs } = options;
    if (signal?.aborted) return Promise.reject(new SyncAbortedError(signal.reason));
    if (timeoutMs !== undefined) count("timeoutMs", timeoutMs);
    return new Promise<void>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = () => waiter.reject(new SyncAbortedError(signal?.reason));
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.#waiters.delete(waiter);
      };
      const waiter: Waiter = {
        resolve: () => {
          done();
          resolve();
        },
        reject: (err) => {
          done();
          reject(err);
        },
      };
      this.#waiters.add(waiter);
      signal?.addEventListener("abort", onAbort, { once: true });
      if (timeoutMs !== undefined)
        timer = setTimeout(() => waiter.reject(new SyncTimeoutError(timeoutMs)), timeoutMs);
    });
  }

  resolveAll(): void {
    for (const w of [...this.#waiters]) w.resolve();
  }

  rejectAll(err: Error): void {
    for (const w of [...this.#waiters]) w.reject(err);
  }
}
