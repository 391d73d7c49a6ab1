/**
 * Time as the runtime sees it. Every timer and every duration in @kubesdk/controller goes through a
 * {@link Clock}, so tests drive the work queue, the controller and leader election with a
 * {@link FakeClock} instead of waiting.
 *
 * Contract: `now()` is monotonic milliseconds (never goes back, unrelated to the wall clock);
 * `wallTime()` is the wall clock, used only for timestamps written to the API server; a timer set
 * with `setTimer(fn, ms)` runs `fn` once, no earlier than `ms` after it was set, unless cancelled.
 */
export interface Clock {
  now(): number;
  wallTime(): Date;
  setTimer(fn: () => void, ms: number): Timer;
}

/** A pending timer; `cancel()` is idempotent. */
export interface Timer {
  cancel(): void;
}

/** The process clock: `performance.now()` and Node timers (unref'd: they keep no process alive). */
export const systemClock: Clock = {
  now: () => performance.now(),
  wallTime: () => new Date(),
  setTimer(fn, ms) {
    const handle = setTimeout(fn, Math.max(0, ms));
    handle.unref?.();
    return { cancel: () => clearTimeout(handle) };
  },
};

interface FakeTimer {
  readonly at: number;
  readonly seq: number;
  readonly fn: () => void;
  cancelled: boolean;
}

/**
 * A clock that moves only when told. `advance(ms)` runs every timer that falls due on the way, in
 * order of due time (then of creation), with `now()` set to each timer's due time while it runs;
 * timers set by those callbacks run too if they fall due before the end.
 */
export class FakeClock implements Clock {
  #now: number;
  #wallOffset: number;
  #seq = 0;
  #timers: FakeTimer[] = [];

  constructor(start = 0, wallStart = Date.UTC(2026, 0, 1)) {
    this.#now = start;
    this.#wallOffset = wallStart - start;
  }

  now(): number {
    return this.#now;
  }

  wallTime(): Date {
    return new Date(this.#now + this.#wallOffset);
  }

  /** Moves the wall clock alone (another node's skewed clock, an NTP step). */
  skewWall(ms: number): void {
    this.#wallOffset += ms;
  }

  /**
   * Moves `now()` forward without running any timer, as a process paused (SIGSTOP, a long GC) sees
   * time when it resumes: everything due meanwhile is overdue; `advance(0)` then runs it.
   */
  jump(ms: number): void {
    this.#now += ms;
  }

  setTimer(fn: () => void, ms: number): Timer {
    const timer: FakeTimer = { at: this.#now + Math.max(0, ms), seq: this.#seq++, fn, cancelled: false };
    this.#timers.push(timer);
    return {
      cancel: () => {
        timer.cancelled = true;
      },
    };
  }

  /** Timers neither run nor cancelled. */
  get pending(): number {
    return this.#timers.filter((t) => !t.cancelled).length;
  }

  /** Due time of the next pending timer, if any. */
  nextDue(): number | undefined {
    const next = this.#next();
    return next?.at;
  }

  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const next = this.#next();
      if (next === undefined || next.at > end) break;
      this.#timers = this.#timers.filter((t) => t !== next);
      this.#now = Math.max(this.#now, next.at);
      next.fn();
    }
    this.#now = end;
  }

  #next(): FakeTimer | undefined {
    this.#timers = this.#timers.filter((t) => !t.cancelled);
    let best: FakeTimer | undefined;
    for (const t of this.#timers)
      if (best === undefined || t.at < best.at || (t.at === best.at && t.seq < best.seq)) best = t;
    return best;
  }
}
