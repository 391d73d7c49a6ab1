/**
 * The continue token of a JSON list read from its first bytes, before the body is decoded: the API
 * server writes `kind`, `apiVersion` and `metadata` ahead of `items`, so a pager can ask for the next
 * page while this one is still being decoded. Anything unexpected gives up (undefined) and the
 * token is then taken from the decoded list.
 */

// The JSON punctuation the scan looks for, as bytes.
const [QUOTE, BACKSLASH, COLON, COMMA] = [0x22, 0x5c, 0x3a, 0x2c] as const;
const [OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET] = [0x7b, 0x7d, 0x5b, 0x5d] as const;
// Members ahead of `items` are small; a list whose metadata is not in this prefix is decoded first.
const MAX_SCAN_BYTES = 64 * 1024;

const utf8 = new TextDecoder("utf-8", { fatal: true });

function isSpace(b: number | undefined): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

function skipSpace(bytes: Uint8Array, i: number, end: number): number {
  while (i < end && isSpace(bytes[i])) i++;
  return i;
}

/** Index just past the string starting at `i` (a quote), or -1. */
function stringEnd(bytes: Uint8Array, i: number, end: number): number {
  for (let j = i + 1; j < end; j++) {
    const b = bytes[j];
    if (b === BACKSLASH) j++;
    else if (b === QUOTE) return j + 1;
  }
  return -1;
}

/** Index just past the JSON value starting at `i`, or -1 (not within `end`). */
function valueEnd(bytes: Uint8Array, i: number, end: number): number {
  const first = bytes[i];
  if (first === QUOTE) return stringEnd(bytes, i, end);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    let j = i;
    while (j < end && bytes[j] !== COMMA && bytes[j] !== CLOSE_BRACE && !isSpace(bytes[j])) j++;
    return j < end ? j : -1;
  }
  let depth = 0;
  for (let j = i; j < end; j++) {
    const b = bytes[j];
    if (b === QUOTE) {
      j = stringEnd(bytes, j, end) - 1;
      if (j < 0) return -1;
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
    else if ((b === CLOSE_BRACE || b === CLOSE_BRACKET) && --depth === 0) return j + 1;
  }
  return -1;
}

/** Whether bytes[from, to) are exactly `"name"`. */
function isKey(bytes: Uint8Array, from: number, to: number, name: string): boolean {
  if (to - from !== name.length + 2) return false;
  for (let k = 0; k < name.length; k++) if (bytes[from + 1 + k] !== name.charCodeAt(k)) return false;
  return true;
}

/** `metadata.continue` of a JSON list body when its metadata comes before its items; else undefined. */
export function earlyContinueToken(body: Uint8Array): string | undefined {
  const end = Math.min(body.length, MAX_SCAN_BYTES);
  let i = skipSpace(body, 0, end);
  if (body[i] !== OPEN_BRACE) return undefined;
  i++;
  for (;;) {
    i = skipSpace(body, i, end);
    if (body[i] !== QUOTE) return undefined;
    const keyEnd = stringEnd(body, i, end);
    if (keyEnd < 0) return undefined;
    const key = i;
    i = skipSpace(body, keyEnd, end);
    if (body[i] !== COLON) return undefined;
    i = skipSpace(body, i + 1, end);
    if (isKey(body, key, keyEnd, "items")) return undefined;
    const next = valueEnd(body, i, end);
    if (next < 0) return undefined;
    if (isKey(body, key, keyEnd, "metadata")) return continueOf(body.subarray(i, next));
    i = skipSpace(body, next, end);
    if (body[i] !== COMMA) return undefined;
    i++;
  }
}

function continueOf(metadata: Uint8Array): string | undefined {
  try {
    const meta = JSON.parse(utf8.decode(metadata)) as { continue?: unknown } | null;
    const token = meta?.continue;
    return typeof token === "string" && token !== "" ? token : undefined;
  } catch {
    return undefined;
  }
}
