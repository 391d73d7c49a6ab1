import { excerptBytes } from "../errors/base.js";
import { MalformedEventError } from "./errors.js";
import type { RawWatchEvent } from "./watch-event.js";

// fatal: a frame holding invalid UTF-8 is reported, not silently repaired with U+FFFD.
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Decodes one JSON watch line. UTF-8 is decoded per complete line, so chunk boundaries never split a character. */
export function decodeJsonWatchFrame(frame: Uint8Array): RawWatchEvent {
  let text: string;
  try {
    text = utf8.decode(frame);
  } catch {
    throw new MalformedEventError("invalid UTF-8", excerptBytes(frame));
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // The SyntaxError is not attached: its message would repeat the payload untruncated.
    throw new MalformedEventError("invalid JSON", excerptBytes(frame));
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new MalformedEventError("not a JSON object", excerptBytes(frame));
  }
  return value as RawWatchEvent;
}
