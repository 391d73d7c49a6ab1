import { KubesdkError } from "../errors/base.js";
import type { DecodedWatchEvent } from "./watch-event.js";

/** A watch stream could not be decoded. Events decoded before the bad spot are in `precedingEvents`. */
export abstract class WatchDecodeError extends KubesdkError {
  /** Events from the same chunk that came before the failure, in order; deliver them before raising. */
  precedingEvents: readonly DecodedWatchEvent[] = [];
}

/** One event is larger than the configured maximum; `sizeBytes` is the size seen (a lower bound if `sizeIsLowerBound`). */
export class EventTooLargeError extends WatchDecodeError {
  readonly code = "WATCH_EVENT_TOO_LARGE" as const;
  readonly limitBytes: number;
  readonly sizeBytes: number;
  readonly sizeIsLowerBound: boolean;

  constructor(limitBytes: number, sizeBytes: number, sizeIsLowerBound: boolean) {
    super(
      `watch event of ${sizeIsLowerBound ? "at least " : ""}${sizeBytes} bytes exceeds the limit of ${limitBytes} bytes`,
    );
    this.limitBytes = limitBytes;
    this.sizeBytes = sizeBytes;
    this.sizeIsLowerBound = sizeIsLowerBound;
  }
}

/** A complete frame that is not a valid watch event; `excerpt` holds its (truncated) start. */
export class MalformedEventError extends WatchDecodeError {
  readonly code = "WATCH_EVENT_MALFORMED" as const;
  readonly excerpt: string;

  constructor(problem: string, excerpt: string, options?: ErrorOptions) {
    super(`malformed watch event (${problem}): ${excerpt}`, options);
    this.excerpt = excerpt;
  }
}

/** The stream ended in the middle of an event; `pendingBytes` were received of it. */
export class TruncatedStreamError extends WatchDecodeError {
  readonly code = "WATCH_STREAM_TRUNCATED" as const;
  readonly pendingBytes: number;

  constructor(pendingBytes: number, options?: ErrorOptions) {
    super(`watch stream ended in the middle of an event (${pendingBytes} bytes of it received)`, options);
    this.pendingBytes = pendingBytes;
  }
}

/** The watch response has a Content-Type no decoder is configured for. */
export class UnsupportedWatchContentTypeError extends WatchDecodeError {
  readonly code = "WATCH_CONTENT_TYPE_UNSUPPORTED" as const;
  readonly contentType: string | undefined;

  constructor(contentType: string | undefined, hint = "") {
    super(`no watch decoder for content type ${JSON.stringify(contentType ?? "")}${hint}`);
    this.contentType = contentType;
  }
}
