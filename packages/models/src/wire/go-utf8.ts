/**
 * Strings as Go writes them: the Go protobuf code keeps a string's bytes as they are, and
 * encoding/json then writes each byte that does not start a valid UTF-8 sequence as U+FFFD, one
 * per byte (TextDecoder and Buffer replace maximal invalid subsequences instead).
 */
const strict = new TextDecoder("utf-8", { fatal: true });

/** `bytes` as a string, each byte that does not start a valid UTF-8 sequence read as U+FFFD. */
export function goUtf8(bytes: Uint8Array): string {
  // Short strings (most names, labels, enum values) are quicker to read by hand.
  if (bytes.length <= 32) return lenient(bytes);
  try {
    return strict.decode(bytes);
  } catch {
    return lenient(bytes);
  }
}

function lenient(bytes: Uint8Array): string {
  let out = "";
  let i = 0;
  while (i < bytes.length) {
    const [code, size] = runeAt(bytes, i);
    out += String.fromCodePoint(code);
    i += size;
  }
  return out;
}

const replacement = 0xfffd;

/** The rune starting at `i` and its size in bytes; an invalid start is [U+FFFD, 1]. */
function runeAt(b: Uint8Array, i: number): [number, number] {
  const c0 = b[i] as number;
  if (c0 < 0x80) return [c0, 1];
  const cont = (k: number, lo = 0x80, hi = 0xbf): number => {
    const c = b[i + k];
    return c !== undefined && c >= lo && c <= hi ? c & 0x3f : -1;
  };
  if (c0 >= 0xc2 && c0 <= 0xdf) {
    const c1 = cont(1);
    return c1 < 0 ? [replacement, 1] : [((c0 & 0x1f) << 6) | c1, 2];
  }
  if (c0 >= 0xe0 && c0 <= 0xef) {
    // No overlong forms (E0 needs A0..BF) and no surrogates (ED needs 80..9F).
    const c1 = cont(1, c0 === 0xe0 ? 0xa0 : 0x80, c0 === 0xed ? 0x9f : 0xbf);
    const c2 = cont(2);
    return c1 < 0 || c2 < 0 ? [replacement, 1] : [((c0 & 0x0f) << 12) | (c1 << 6) | c2, 3];
  }
  if (c0 >= 0xf0 && c0 <= 0xf4) {
    // No overlong forms (F0 needs 90..BF) and nothing past U+10FFFF (F4 needs 80..8F).
    const c1 = cont(1, c0 === 0xf0 ? 0x90 : 0x80, c0 === 0xf4 ? 0x8f : 0xbf);
    const c2 = cont(2);
    const c3 = cont(3);
    if (c1 < 0 || c2 < 0 || c3 < 0) return [replacement, 1];
    return [((c0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3, 4];
  }
  return [replacement, 1];
}
