import { decodeWatchEvent, WireError } from "@kubesdk/models";
import { hexExcerpt } from "../errors/base.js";
import { MalformedEventError } from "./errors.js";
import type { RawWatchEvent } from "./watch-event.js";

/**
 * Decodes one protobuf watch frame (after its length prefix) with @kubesdk/models' wire codec.
 * ERROR frames carry an enveloped protobuf Status, which comes out in its JSON form.
 */
export function decodeProtobufWatchFrame(frame: Uint8Array): RawWatchEvent {
  try {
    return decodeWatchEvent(frame);
  } catch (err) {
    if (err instanceof WireError)
      throw new MalformedEventError(err.message, hexExcerpt(frame), { cause: err });
    throw err;
  }
}
