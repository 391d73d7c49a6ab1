import { type ActiveSpan, startSpan } from "../telemetry/tracing.js";
import { WatchDecodeError } from "../watch/errors.js";
import {
  type WatchDecoder,
  type WatchDecoderSelection,
  watchDecoderForContentType,
} from "../watch/watch-decoder.js";
import type { DecodedWatchEvent, WatchEvent, WatchFrameDecoder } from "../watch/watch-event.js";
import type { CallOptions } from "./call-options.js";
import type { BodyFlow, StreamResponse } from "./response.js";

/** Per-watch options. */
export interface WatchStreamOptions extends CallOptions {
  /** No bytes for this long → TimeoutError IDLE_TIMEOUT (default: the transport's watchIdleMs). */
  readonly idleTimeoutMs?: number;
  /** Largest accepted event (default: the transport's maxWatchEventBytes, else 16 MiB). */
  readonly maxEventBytes?: number;
  /** Decodes protobuf frames of this watch (default: the transport's protobufWatchFrameDecoder, if any). */
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

/** How a watch is opened: its signal, decoder choice, and the path its span names (none: no span). */
export interface OpenWatchOptions {
  readonly signal?: AbortSignal;
  readonly decoder: WatchDecoderSelection;
  readonly tracedPath?: string;
}

/** Wraps a stream opener into a {@link WatchStream}. */
export function openWatch<T>(
  open: (signal: AbortSignal) => Promise<StreamResponse>,
  options: OpenWatchOptions,
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

// Decoded chunks waiting for the reader beyond this pause the body (the socket stops being read),
// which bounds what a slow reader holds to a few chunks' worth of events. It reads on once all of
// them have been taken.
const PAUSE_AT_CHUNKS = 8;

/**
 * The body is decoded as it arrives (flowing mode, see StreamResponse.flow): each chunk's events
 * wait in `#chunks` until read, in order, and a failure is thrown once the events before it are.
 */
class HttpWatchStream<T> implements BatchedWatchStream<T> {
  readonly #internal = new AbortController();
  readonly #open: (signal: AbortSignal) => Promise<StreamResponse>;
  readonly #signal: AbortSignal;
  readonly #selection: WatchDecoderSelection;
  #opening: Promise<void> | undefined;
  #response: StreamResponse | undefined;
  #flow: BodyFlow | undefined;
  #paused = false;
  /** Decoded events, one array per chunk of the body, not yet taken. */
  #chunks: DecodedWatchEvent<T>[][] = [];
  #buffer: readonly DecodedWatchEvent<T>[] = [];
  #index = 0;
  /** The body is over (ended or failed): nothing more arrives. */
  #ended = false;
  #failure: { readonly error: unknown } | undefined;
  #closed = false;
  /** Iteration is over. */
  #finished = false;
  #arrival: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  readonly #tracedPath: string | undefined;
  /** The watch's span (OpenTelemetry, when installed): from connect to the end, counting events. */
  #span: ActiveSpan | undefined;
  #events = 0;

  constructor(open: (signal: AbortSignal) => Promise<StreamResponse>, options: OpenWatchOptions) {
    this.#open = open;
    this.#selection = options.decoder;
    this.#tracedPath = options.tracedPath;
    this.#signal =
      options.signal === undefined
        ? this.#internal.signal
        : AbortSignal.any([options.signal, this.#internal.signal]);
  }

  async next(): Promise<IteratorResult<WatchEvent<T>>> {
    if (!(await this.#fill())) return DONE;
    const event = this.#buffer[this.#index++] as DecodedWatchEvent<T>;
    if (event.type === "ERROR") {
      this.#endSpan(event.error);
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
    return DONE;
  }

  async throw(): Promise<IteratorResult<WatchEvent<T>>> {
    return this.return();
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
    this.#chunks = [];
    this.#endSpan(undefined);
    this.#arrived();
  }

  #endSpan(error: unknown): void {
    this.#span?.set("kubesdk.watch.events", this.#events);
    this.#span?.end(error);
  }

  /** True when an event is buffered; false once the stream is done (or closed). */
  async #fill(): Promise<boolean> {
    for (;;) {
      if (this.#closed || this.#finished) return false;
      if (this.#index < this.#buffer.length) return true;
      const chunk = this.#chunks.shift();
      if (chunk !== undefined) {
        this.#buffer = chunk;
        this.#index = 0;
        if (this.#paused && this.#chunks.length === 0) {
          this.#paused = false;
          this.#flow?.resume();
        }
      } else if (this.#failure !== undefined) {
        this.#finished = true;
        throw this.#failure.error;
      } else if (this.#ended) {
        this.#finished = true;
        return false;
      } else if (this.#flow === undefined) {
        // Not connected yet. Callers that overlap share one connect, and take each chunk's events
        // once, in order.
        this.#opening ??= this.#start();
        await this.#opening;
      } else {
        this.#arrival ??= new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
        await this.#arrival;
      }
    }
  }

  async #start(): Promise<void> {
    if (this.#tracedPath !== undefined)
      this.#span = startSpan("watch", { "url.path": this.#tracedPath }, "internal");
    let response: StreamResponse;
    try {
      const open = () => this.#open(this.#signal);
      response = await (this.#span === undefined ? open() : this.#span.run(open));
    } catch (err) {
      this.#end(this.#closed ? undefined : { error: err });
      return;
    }
    this.#response = response;
    if (this.#closed) {
      response.close();
      return;
    }
    let decoder: WatchDecoder<T>;
    try {
      decoder = watchDecoderForContentType<T>(response.contentType, this.#selection);
    } catch (err) {
      this.#end({ error: err });
      return;
    }
    this.#flow = response.flow({
      chunk: (bytes) => this.#decoded(() => decoder.push(bytes)),
      end: () => this.#decoded(() => decoder.end(), true),
      fail: (err) => this.#end(this.#closed ? undefined : { error: err }),
    });
  }

  /** Queues the events `decode` returns; a decode failure ends the stream after the events before it. */
  #decoded(decode: () => DecodedWatchEvent<T>[], last = false): void {
    if (this.#ended) return;
    let events: DecodedWatchEvent<T>[];
    try {
      events = decode();
    } catch (err) {
      if (err instanceof WatchDecodeError && err.precedingEvents.length > 0)
        this.#queue(err.precedingEvents as DecodedWatchEvent<T>[]);
      this.#end({ error: err });
      return;
    }
    if (events.length > 0) this.#queue(events);
    if (last) this.#end(undefined);
    else this.#arrived();
  }

  #queue(events: DecodedWatchEvent<T>[]): void {
    if (this.#closed) return;
    this.#events += events.length;
    this.#chunks.push(events);
    if (!this.#paused && this.#chunks.length >= PAUSE_AT_CHUNKS) {
      this.#paused = true;
      this.#flow?.pause();
    }
  }

  /** Nothing more arrives; `failure`, if any, is thrown after the events already queued. */
  #end(failure: { readonly error: unknown } | undefined): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#failure = failure;
    this.#endSpan(failure?.error);
    this.#response?.close();
    this.#arrived();
  }

  #arrived(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    this.#arrival = undefined;
    wake?.();
  }

  /** An ERROR event ends the stream: nothing after it is delivered. */
  #fail(): void {
    this.#finished = true;
    this.#buffer = [];
    this.#index = 0;
    this.close();
  }
}
