import type { ApiError } from "../errors/api-error.js";
import type { Status } from "../errors/status.js";

/** The event types a watch delivers to callers; ERROR events are turned into {@link ApiError}s. */
export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK";

/** One change seen by a watch: the object after the change (for DELETED, its last state). */
export interface WatchEvent<T = unknown> {
  readonly type: WatchEventType;
  readonly object: T;
}

/** An ERROR event as decoded: the Status the server sent and the ApiError built from it. */
export interface WatchErrorEvent {
  readonly type: "ERROR";
  readonly object: Status;
  readonly error: ApiError;
}

/** What the pure decoder yields: normal events, or ERROR events for the caller to raise. */
export type DecodedWatchEvent<T = unknown> = WatchEvent<T> | WatchErrorEvent;

/** A watch event straight off the wire, before its type and object are checked. */
export interface RawWatchEvent {
  readonly type: unknown;
  readonly object: unknown;
}

/**
 * Turns the bytes of one frame into a raw event. Throws {@link MalformedEventError} on bad input.
 * JSON and protobuf (through @kubesdk/models' wire codec) have built-in decoders.
 */
export type WatchFrameDecoder = (frame: Uint8Array) => RawWatchEvent;
