/**
 * CPU-heavy handler work written as a generator whose `yield`s mark where it may pause: run at once
 * for ordinary requests, or with a turn of the event loop at each pause for limit-sized ones, so
 * that one big request does not hold up every other client for its whole duration.
 */
import { setImmediate as nextTurn } from "node:timers/promises";

export type Steps<T> = Generator<void, T, void>;

export function runAtOnce<T>(steps: Steps<T>): T {
  let s = steps.next();
  while (!s.done) s = steps.next();
  return s.value;
}

export async function runYielding<T>(steps: Steps<T>): Promise<T> {
  let s = steps.next();
  while (!s.done) {
    await nextTurn();
    s = steps.next();
  }
  return s.value;
}

/**
 * A turn of the event loop. Callers await it only for a large request (`if (large) await pause()`):
 * even an await of nothing would let other requests' continuations run between a read and a commit.
 */
export function pause(): Promise<void> {
  return nextTurn();
}
