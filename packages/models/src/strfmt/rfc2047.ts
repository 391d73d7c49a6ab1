/**
 * The one RFC 2047 encoded-word failure Go's net/mail does not ignore: a well-formed word
 * (`=?charset?b|q?text?=`, exactly four `?`, text that decodes) in a charset it cannot convert.
 * Any other malformed encoded word is kept as plain text, so it needs no check here.
 */
const KNOWN_CHARSETS = new Set(["utf-8", "iso-8859-1", "us-ascii"]);
const B_TEXT = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Q text: `=` and two hex digits, or a printable ASCII character or tab. */
const Q_TEXT = /^(?:=[0-9A-Fa-f]{2}|[\t -<>-~])*$/;

export function hasUnknownCharset(word: string): boolean {
  if (word.length < 8 || !word.startsWith("=?") || !word.endsWith("?=")) return false;
  const parts = word.slice(2, -2).split("?");
  if (parts.length !== 3) return false;
  const [charset, encoding, text] = parts as [string, string, string];
  if (charset === "") return false;
  const decodes = /^[bB]$/.test(encoding) ? B_TEXT.test(text) : /^[qQ]$/.test(encoding) && Q_TEXT.test(text);
  return decodes && !KNOWN_CHARSETS.has(charset.toLowerCase());
}
