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

/**
 * Reads every event a watch stream has decoded but not yet handed out, at once (at least one; the
 * result is done when the stream is). Events come in the same order as from `next()`, and an ERROR
 * event is thrown in the same place. Saves a promise per event for consumers that take events in
 * bulk (an informer's reflector); streams that lack it are read one `next()` at a time.
 */
export const nextWatchBatch: unique symbol = Symbol("kubesdk.nextWatchBatch");

/** A {@link WatchStream} that can also be read a batch of events at a time. */
export interface BatchedWatchStream<T> extends WatchStream<T> {
  [nextWatchBatch](): Promise<IteratorResult<readonly WatchEvent<T>[]>>;
}

/** Whether a stream can be read in batches (see {@link nextWatchBatch}). */
export function isBatchedWatchStream<T>(stream: WatchStream<T>): stream is BatchedWatchStream<T> {
  return typeof (stream as Partial<BatchedWatchStream<T>>)[nextWatchBatch] === "function";
}

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

class HttpWatchStream<T> implements BatchedWatchStream<T> {
  readonly #internal = new AbortController();
  /** Decoded events, one array per chunk of the body; ERROR events are thrown when reached. */
  readonly #chunks: AsyncGenerator<readonly DecodedWatchEvent<T>[], undefined, undefined>;
  #buffer: readonly DecodedWatchEvent<T>[] = [];
  #index = 0;
  #response: StreamResponse | undefined;
  #closed = false;
  #finished = false;
  #filling: Promise<void> | undefined;

  constructor(
    open: (signal: AbortSignal) => Promise<StreamResponse>,
    options: { readonly signal?: AbortSignal; readonly decoder: WatchDecoderSelection },
  ) {
    const signal =
      options.signal === undefined
        ? this.#internal.signal
        : AbortSignal.any([options.signal, this.#internal.signal]);
    this.#chunks = this.#run(open, signal, options.decoder);
  }

  async next(): Promise<IteratorResult<WatchEvent<T>>> {
    if (!(await this.#fill())) return DONE;
    const event = this.#buffer[this.#index++] as DecodedWatchEvent<T>;
    if (event.type === "ERROR") {
      this.#fail();
      throw event.error;
    }
    return { done: false, value: event };
  }

  async [nextWatchBatch](): Promise<IteratorResult<readonly WatchEvent<T>[]>> {
    if (!(await this.#fill())) return DONE;
    const buffer = this.#buffer;
    const from = this.#index;
    let to = from;
    while (to < buffer.length && (buffer[to] as DecodedWatchEvent<T>).type !== "ERROR") to++;
    if (to === from) return this.next() as Promise<never>;
    this.#index = to;
    const batch = from === 0 && to === buffer.length ? buffer : buffer.slice(from, to);
    return { done: false, value: batch as readonly WatchEvent<T>[] };
  }

  async return(): Promise<IteratorResult<WatchEvent<T>>> {
    this.close();
    this.#finished = true;
    await this.#chunks.return(undefined);
    return DONE;
  }

  async throw(err?: unknown): Promise<IteratorResult<WatchEvent<T>>> {
    this.close();
    this.#finished = true;
    await this.#chunks.throw(err);
    return DONE;
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

  /** True when an event is buffered; false once the stream is done (or closed). */
  async #fill(): Promise<boolean> {
    while (this.#index >= this.#buffer.length) {
      if (this.#finished || this.#closed) return false;
      // Callers that overlap share one read, so no chunk is taken twice or skipped.
      this.#filling ??= this.#pull();
      await this.#filling;
    }
    return !this.#closed;
  }

  async #pull(): Promise<void> {
    try {
      const r = await this.#chunks.next();
      if (r.done) this.#finished = true;
      else {
        this.#buffer = r.value;
        this.#index = 0;
      }
    } catch (err) {
      this.#finished = true;
      throw err;
    } finally {
      this.#filling = undefined;
    }
  }

  /** An ERROR event ends the stream: nothing after it is delivered. */
  #fail(): void {
    this.#finished = true;
    this.#buffer = [];
    this.#index = 0;
    this.close();
  }

  async *#run(
    open: (signal: AbortSignal) => Promise<StreamResponse>,
    signal: AbortSignal,
    selection: WatchDecoderSelection,
  ): AsyncGenerator<readonly DecodedWatchEvent<T>[], undefined, undefined> {
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
          if (err instanceof WatchDecodeError && err.precedingEvents.length > 0)
            yield err.precedingEvents as DecodedWatchEvent<T>[];
          throw err;
        }
        if (events.length > 0) yield events;
      }
      const last = decoder.end();
      if (last.length > 0) yield last;
    } catch (err) {
      if (this.#closed) return undefined;
      throw err;
    } finally {
      response.close();
    }
    return undefined;
  }
}
