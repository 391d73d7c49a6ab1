import { JSON_MEDIA_TYPE, mediaTypeOf, PROTOBUF_MEDIA_TYPE } from "@kubesdk/models";
import { apiErrorFromStatus } from "../errors/api-error.js";
import { excerptBytes } from "../errors/base.js";
import type { Status } from "../errors/status.js";
import {
  MalformedEventError,
  TruncatedStreamError,
  UnsupportedWatchContentTypeError,
  WatchDecodeError,
} from "./errors.js";
import { type Framer, LengthPrefixedFramer, LineFramer } from "./framers.js";
import { decodeJsonWatchFrame } from "./json-frame.js";
import { type JsonLine, JsonLineSplitter } from "./json-lines.js";
import type { DecodedWatchEvent, RawWatchEvent, WatchFrameDecoder } from "./watch-event.js";

const NO_PROTOBUF_CODEC =
  ": no protobuf frame decoder is configured (give the client a protobufCodec, docs/guides/protobuf.md)";

/** Events larger than this fail with EventTooLargeError unless configured otherwise. */
export const DEFAULT_MAX_WATCH_EVENT_BYTES = 16 * 1024 * 1024;

/** How a watch body is cut into events. */
export type WatchFraming = "json-lines" | "length-prefixed";

/** Options of {@link WatchDecoder}. */
export interface WatchDecoderOptions {
  readonly framing: WatchFraming;
  /**
   * Decodes one frame; defaults to JSON for "json-lines". Required for "length-prefixed" (protobuf):
   * the transport carries no protobuf codec of its own.
   */
  readonly decodeFrame?: WatchFrameDecoder;
  readonly maxEventBytes?: number;
}

const EVENT_TYPES = new Set(["ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"]);

/**
 * Pure incremental watch decoder: feed it chunks cut at any byte, get whole events in order.
 * Throws a {@link WatchDecodeError} (with the events before the failure in `precedingEvents`);
 * after a failure every further call throws the same error.
 */
export class WatchDecoder<T = unknown> {
  /** JSON lines with the built-in decoder: lines come as text (see JsonLineSplitter). */
  readonly #framer: Framer | JsonLineSplitter;
  readonly #decodeFrame: WatchFrameDecoder;
  #failure: WatchDecodeError | undefined;

  constructor(options: WatchDecoderOptions) {
    const max = options.maxEventBytes ?? DEFAULT_MAX_WATCH_EVENT_BYTES;
    if (options.framing === "json-lines") {
      this.#framer = options.decodeFrame === undefined ? new JsonLineSplitter(max) : new LineFramer(max);
      this.#decodeFrame = options.decodeFrame ?? decodeJsonWatchFrame;
    } else {
      if (options.decodeFrame === undefined)
        throw new UnsupportedWatchContentTypeError(PROTOBUF_MEDIA_TYPE, NO_PROTOBUF_CODEC);
      this.#framer = new LengthPrefixedFramer(max);
      this.#decodeFrame = options.decodeFrame;
    }
  }

  /** Decodes every event completed by `chunk`. */
  push(chunk: Uint8Array): DecodedWatchEvent<T>[] {
    this.#throwIfFailed();
    const frames: JsonLine[] = [];
    try {
      this.#framer.push(chunk, frames as Uint8Array[]);
    } catch (err) {
      throw this.#fail(err, this.#decodeFrames(frames));
    }
    return this.#decodeFrames(frames);
  }

  /** Signals the end of the stream; returns a final unterminated event, or throws if the stream stopped mid-event. */
  end(): DecodedWatchEvent<T>[] {
    this.#throwIfFailed();
    let rest: Uint8Array | undefined;
    try {
      rest = this.#framer.end();
    } catch (err) {
      throw this.#fail(err, []);
    }
    if (rest === undefined) return [];
    let raw: RawWatchEvent;
    try {
      raw = this.#decodeFrame(rest);
    } catch (err) {
      throw this.#fail(new TruncatedStreamError(rest.length, { cause: err }), []);
    }
    return [this.#toEvent(raw, rest)];
  }

  #decodeFrames(frames: JsonLine[]): DecodedWatchEvent<T>[] {
    const events: DecodedWatchEvent<T>[] = [];
    for (const frame of frames) {
      try {
        events.push(
          typeof frame === "string"
            ? this.#toEvent(parseJsonLine(frame), frame)
            : this.#toEvent(this.#decodeFrame(frame), frame),
        );
      } catch (err) {
        throw this.#fail(err, events);
      }
    }
    return events;
  }

  /** The decoded frame is the event when it is a valid one (no copy); ERROR events carry their ApiError. */
  #toEvent(raw: RawWatchEvent, frame: JsonLine): DecodedWatchEvent<T> {
    const { type, object } = raw;
    if (typeof type !== "string" || !EVENT_TYPES.has(type)) {
      throw new MalformedEventError(
        `unknown event type ${JSON.stringify(type) ?? "undefined"}`,
        excerptOf(frame),
      );
    }
    if (typeof object !== "object" || object === null || Array.isArray(object)) {
      throw new MalformedEventError("event object is not an object", excerptOf(frame));
    }
    if (type === "ERROR") {
      const status = { ...(object as object), kind: "Status" } as Status;
      return { type, object: status, error: apiErrorFromStatus(status, { httpCode: 200 }) };
    }
    return raw as DecodedWatchEvent<T>;
  }

  #fail(err: unknown, preceding: DecodedWatchEvent<T>[]): unknown {
    if (!(err instanceof WatchDecodeError)) return err;
    err.precedingEvents = preceding;
    this.#failure = err;
    return err;
  }

  #throwIfFailed(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }
}

/**
 * One JSON line already decoded to text. Whatever JSON.parse rejects (or that is no object) takes
 * the byte path, which reports it exactly as for any frame (and forgives a byte-order mark).
 */
function parseJsonLine(text: string): RawWatchEvent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as RawWatchEvent;
  return decodeJsonWatchFrame(Buffer.from(text, "utf8"));
}

function excerptOf(frame: JsonLine): string {
  return excerptBytes(typeof frame === "string" ? Buffer.from(frame, "utf8") : frame);
}

/** Options of {@link watchDecoderForContentType}. */
export interface WatchDecoderSelection {
  /** Decodes protobuf frames; without it a protobuf watch fails with UnsupportedWatchContentTypeError. */
  readonly protobufFrameDecoder?: WatchFrameDecoder;
  readonly maxEventBytes?: number;
}

/** Picks framing and frame decoder from a watch response's Content-Type. */
export function watchDecoderForContentType<T>(
  contentType: string | undefined,
  selection: WatchDecoderSelection = {},
): WatchDecoder<T> {
  const mediaType = mediaTypeOf(contentType);
  const max = selection.maxEventBytes !== undefined ? { maxEventBytes: selection.maxEventBytes } : {};
  if (mediaType === JSON_MEDIA_TYPE || mediaType.endsWith("+json")) {
    return new WatchDecoder<T>({ framing: "json-lines", ...max });
  }
  if (mediaType === PROTOBUF_MEDIA_TYPE) {
    if (selection.protobufFrameDecoder === undefined)
      throw new UnsupportedWatchContentTypeError(contentType, NO_PROTOBUF_CODEC);
    return new WatchDecoder<T>({
      framing: "length-prefixed",
      decodeFrame: selection.protobufFrameDecoder,
      ...max,
    });
  }
  throw new UnsupportedWatchContentTypeError(contentType);
}
