/**
 * A quick proof that a JSON text repeats no key, from the text and what JSON.parse made of it,
 * so that the key-by-key scan of duplicate-fields.ts runs only when the proof fails. Without a
 * backslash no string holds a quote, so every `":` in the text closes a key, or opens a string
 * value that starts with a colon (counted too: then the proof fails, never wrongly succeeds);
 * without a quote, blanks and a colon, no key is spaced from its colon. Then the text holds
 * exactly as many keys as `":` pairs, and the parsed value as many as it kept: equal counts mean
 * JSON.parse dropped no repeated key.
 */
export function repeatsNoKey(text: string, parsed: unknown): boolean {
  if (text.includes("\\") || SPACED_KEY.test(text)) return false;
  let pairs = 0;
  for (let at = text.indexOf('":'); at >= 0; at = text.indexOf('":', at + 2)) pairs++;
  return pairs === keysIn(parsed);
}

const SPACED_KEY = /"[ \t\r\n]+:/;

/** How many object keys a parsed JSON value holds, at every depth. */
function keysIn(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  let n = 0;
  if (Array.isArray(value)) {
    for (const item of value) n += keysIn(item);
    return n;
  }
  for (const key in value) n += 1 + keysIn((value as Record<string, unknown>)[key]);
  return n;
}
