/** Lister-watchers that alter what the server sends, for scenarios about misbehaving servers. */
import type { WatchEvent, WatchStream } from "@kubesdk/transport";

/** A WatchStream whose events pass through `map`; closing it closes the source. */
export function mapWatchStream<A, B>(
  source: WatchStream<A>,
  map: (event: WatchEvent<A>) => WatchEvent<B>,
): WatchStream<B> {
  const mapped: WatchStream<B> = {
    async next() {
      const r = await source.next();
      return r.done ? { done: true, value: undefined } : { done: false, value: map(r.value) };
    },
    async return() {
      await source.return?.();
      return { done: true, value: undefined };
    },
    async throw(err?: unknown) {
      source.close();
      throw err;
    },
    close() {
      source.close();
    },
    [Symbol.asyncIterator]() {
      return mapped;
    },
  };
  return mapped;
}
