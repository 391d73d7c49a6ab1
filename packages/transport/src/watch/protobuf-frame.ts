import { decodeWatchEvent, type Int64Mode, WireError } from "@kubesdk/models";
import { hexExcerpt } from "../errors/base.js";
import { MalformedEventError } from "./errors.js";
import type { RawWatchEvent, WatchFrameDecoder } from "./watch-event.js";

/**
 * Decodes one protobuf watch frame (after its length prefix) with @kubesdk/models' wire codec.
 * ERROR frames carry an enveloped protobuf Status, which comes out in its JSON form.
 */
export function decodeProtobufWatchFrame(frame: Uint8Array, int64: Int64Mode = "number"): RawWatchEvent {
  try {
    return decodeWatchEvent(frame, { int64 });
  } catch (err) {
    if (err instanceof WireError)
      throw new MalformedEventError(err.message, hexExcerpt(frame), { cause: err });
    throw err;
  }
}

/** A frame decoder whose int64 values beyond ±(2^53 − 1) come out as `int64` says (see decodeObject). */
export function protobufWatchFrameDecoder(int64: Int64Mode): WatchFrameDecoder {
  return int64 === "number" ? decodeProtobufWatchFrame : (frame) => decodeProtobufWatchFrame(frame, int64);
}
