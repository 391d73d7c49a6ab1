/**
 * Go's string order: the bytes of the UTF-8, which is code point order. JavaScript's `<` and the
 * default sort compare UTF-16 units instead, which agrees only below U+D800 (a character beyond U+FFFF
 * is a surrogate pair, U+D800–U+DFFF, and sorts before U+E000–U+FFFF there but after it in Go).
 */
export function compareGoStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}
