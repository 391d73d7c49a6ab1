/**
 * One flush after the current turn of the event loop for every watch stream that was written in
 * it. Node corks a response only until process.nextTick, which runs after each request's handler,
 * so each event reached the socket alone; setImmediate runs once the poll phase has handled every
 * request that arrived, so all their events leave in one write per stream. One immediate serves
 * all streams: a thousand per turn would cost more than the writes they save.
 *
 * setImmediate comes from node:timers, not the global: a test that fakes the global timers
 * (vi.useFakeTimers) around an in-process server must still get its watch events.
 */
import { setImmediate } from "node:timers";

export interface Flushable {
  flush(): void;
}

let queued: Flushable[] = [];

function flushAll(): void {
  const streams = queued;
  queued = [];
  for (const s of streams) s.flush();
}

/** Flushes `s` after this turn; call once per turn, when its first frame is pending. */
export function queueFlush(s: Flushable): void {
  if (queued.length === 0) setImmediate(flushAll);
  queued.push(s);
}
