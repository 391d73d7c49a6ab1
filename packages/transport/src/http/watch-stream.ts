import { WatchDecodeError } from "../watch/errors.js";
import {
  type WatchDecoder,
  type WatchDecoderSelection,
  watchDecoderForContentType,
} from "../watch/watch-decoder.js";
import type { DecodedWatchEvent, WatchEvent, WatchFrameDecoder } from "../watch/watch-event.js";
import type { StreamResponse } from "./response.js";
import type { CallOptions } from "./transport.js";

/** Per-watch options. */
export interface WatchStreamOptions extends CallOptions {
  /** No bytes for this long → TimeoutError IDLE_TIMEOUT (default: the transport's watchIdleMs). */
  readonly idleTimeoutMs?: number;
  /** Largest accepted event (default: the transport's maxWatchEventBytes, else 16 MiB). */
  readonly maxEventBytes?: number;
  /** Decodes protobuf frames of this watch (default: the transport's protobufWatchFrameDecoder). */
  readonly protobufFrameDecoder?: WatchFrameDecoder;
}

/**
 * Events of one watch request, in order. Connects on the first `next()`. ERROR events, decode
 * failures and transport failures are thrown; `close()`, `return()` (a `break` out of `for await`)
 * and the signal close the connection. After `close()` iteration ends without an error.
 */
export interface WatchStream<T> extends AsyncIterableIterator<WatchEvent<T>> {
  close(): void;
}

/** Wraps a stream opener into a {@link WatchStream}. */
export function openWatch<T>(
  open: (signal: AbortSignal) => Promise<StreamResponse>,
  options: { readonly signal?: AbortSignal; readonly decoder: WatchDecoderSelection },
): WatchStream<T> {
  return new HttpWatchStream<T>(open, options);
}

class HttpWatchStream<T> implements WatchStream<T> {
  readonly #internal = new AbortController();
  readonly #events: AsyncGenerator<WatchEvent<T>, undefined, undefined>;
  #response: StreamResponse | undefined;
  #closed = false;

  constructor(
    open: (signal: AbortSignal) => Promise<StreamResponse>,
    options: { readonly signal?: AbortSignal; readonly decoder: WatchDecoderSelection },
  ) {
    const signal =
      options.signal === undefined
        ? this.#internal.signal
        : AbortSignal.any([options.signal, this.#internal.signal]);
    this.#events = this.#run(open, signal, options.decoder);
  }

  next(): Promise<IteratorResult<WatchEvent<T>>> {
    return this.#events.next();
  }

  return(): Promise<IteratorResult<WatchEvent<T>>> {
    this.close();
    return this.#events.return(undefined);
  }

  throw(err?: unknown): Promise<IteratorResult<WatchEvent<T>>> {
    this.close();
    return this.#events.throw(err);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    // Aborting reaches a connect in progress; closing the body releases an open stream at once,
    // even while a `next()` is waiting for bytes.
    this.#internal.abort();
    this.#response?.close();
  }

  async *#run(
    open: (signal: AbortSignal) => Promise<StreamResponse>,
    signal: AbortSignal,
    selection: WatchDecoderSelection,
  ): AsyncGenerator<WatchEvent<T>, undefined, undefined> {
    let response: StreamResponse;
    try {
      response = await open(signal);
    } catch (err) {
      if (this.#closed) return undefined;
      throw err;
    }
    this.#response = response;
    try {
      if (this.#closed) return undefined;
      const decoder: WatchDecoder<T> = watchDecoderForContentType<T>(response.contentType, selection);
      for await (const chunk of response.body) {
        let events: DecodedWatchEvent<T>[];
        try {
          events = decoder.push(chunk);
        } catch (err) {
          if (err instanceof WatchDecodeError) yield* deliver(err.precedingEvents as DecodedWatchEvent<T>[]);
          throw err;
        }
        yield* deliver(events);
      }
      yield* deliver(decoder.end());
    } catch (err) {
      if (this.#closed) return undefined;
      throw err;
    } finally {
      response.close();
    }
    return undefined;
  }
}

function* deliver<T>(events: readonly DecodedWatchEvent<T>[]): Generator<WatchEvent<T>> {
  for (const event of events) {
    if (event.type === "ERROR") throw event.error;
    yield event;
  }
}
