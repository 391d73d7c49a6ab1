import type { WatchEvent, WatchStream } from "@kubesdk/transport";

/** A WatchStream that reads with `next`; return() ends it and close() does nothing. */
export function watchStreamOf<T>(next: () => Promise<IteratorResult<WatchEvent<T>>>): WatchStream<T> {
  const stream: WatchStream<T> = {
    next,
    async return() {
      return { done: true, value: undefined };
    },
    async throw(err?: unknown) {
      throw err;
    },
    close() {},
    [Symbol.asyncIterator]() {
      return stream;
    },
  };
  return stream;
}
