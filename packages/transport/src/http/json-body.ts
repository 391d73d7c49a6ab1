import { excerptBytes } from "../errors/base.js";
import { ResponseDecodeError } from "../errors/transport-errors.js";

// fatal: invalid UTF-8 is reported instead of being replaced with U+FFFD.
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Parses a response body as JSON. An empty body, invalid UTF-8 or text that is not JSON throws a
 * {@link ResponseDecodeError} naming the Content-Type and quoting the start of the body.
 */
export function decodeJsonBody(body: Uint8Array, contentType: string | undefined): unknown {
  try {
    return JSON.parse(utf8.decode(body));
  } catch {
    const what = body.length === 0 ? "an empty body" : `a body that is not JSON: ${excerptBytes(body, 120)}`;
    throw new ResponseDecodeError(
      `expected JSON (got ${contentType ?? "no content type"}) but received ${what}`,
      contentType,
    );
  }
}
