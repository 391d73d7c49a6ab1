/**
 * Reading one watch stream to its end: a batch of events per chunk of the body where the stream
 * offers it (no promise per event), one `next()` at a time otherwise.
 */
import type { WatchEvent, WatchStream } from "@kubesdk/transport";
import { isBatchedWatchStream, nextWatchBatch } from "@kubesdk/transport/internal";

/**
 * Hands every event to `onEvent` until the stream ends or `signal` aborts; rejects with the
 * stream's failure. When `onEvent` returns true (handlers fell
 * behind), handlers get a microtask turn before the next event, as they would between chunks.
 */
export async function readWatch<T>(
  stream: WatchStream<T>,
  signal: AbortSignal,
  onEvent: (event: WatchEvent<T>) => boolean,
): Promise<void> {
  if (!isBatchedWatchStream(stream)) {
    for (let r = await stream.next(); !r.done; r = await stream.next()) {
      onEvent(r.value);
    }
    return;
  }
  for (let r = await stream[nextWatchBatch](); !r.done; r = await stream[nextWatchBatch]()) {
    for (const event of r.value) {
      if (signal.aborted) return;
      if (onEvent(event)) await Promise.resolve();
    }
  }
}
