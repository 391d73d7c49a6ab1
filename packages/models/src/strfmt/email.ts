/**
 * kube-openapi strfmt's `email`: Go's net/mail ParseAddress succeeds on the whole string. That takes
 * a bare addr-spec (`a@b`, optionally followed by a `(comment)`), a display name and an angle-addr
 * (`A <a@b.c>`), or a group holding exactly one address (`g: a@b;`). Hand-written: JavaScript email
 * validators follow the JSON-schema or HTML rules, which refuse `a@b`-like forms Go takes and take
 * others it refuses.
 */
import { isGoIP } from "./ip.js";
import { hasUnknownCharset } from "./rfc2047.js";

/** A cursor over the code points of the input (Go walks runes; JSON has no invalid UTF-8 left). */
class Cursor {
  constructor(public s: string) {}
  get empty() {
    return this.s === "";
  }
  peek() {
    return this.s[0];
  }
  consume(c: string) {
    if (this.s[0] !== c) return false;
    this.s = this.s.slice(1);
    return true;
  }
  skipSpace() {
    this.s = this.s.replace(/^[ \t]+/, "");
  }
}

const SPECIALS = new Set('()<>[]:;@\\,"');
/** Visible ASCII or any non-ASCII code point. */
const isVchar = (c: string) => (c >= "!" && c <= "~") || (c.codePointAt(0) ?? 0) >= 0x80;
const isAtext = (c: string, dot: boolean) => (c === "." ? dot : !SPECIALS.has(c) && isVchar(c));

class Fail extends Error {}
const fail = (): never => {
  throw new Fail();
};

function atom(p: Cursor, permissive: boolean): string {
  let n = 0;
  for (const c of p.s) {
    if (!isAtext(c, true)) break;
    n += c.length;
  }
  const a = p.s.slice(0, n);
  if (n === 0 || (!permissive && (a.startsWith(".") || a.endsWith(".") || a.includes("..")))) fail();
  p.s = p.s.slice(n);
  return a;
}

function quotedString(p: Cursor): string {
  let out = "";
  let escaped = false;
  let i = 1;
  for (const c of p.s.slice(1)) {
    i += c.length;
    if (escaped) {
      if (!isVchar(c) && c !== " " && c !== "\t") fail();
      out += c;
      escaped = false;
    } else if (c === '"') {
      p.s = p.s.slice(i);
      return out;
    } else if (c === "\\") escaped = true;
    else if (isVchar(c) || c === " " || c === "\t") out += c;
    else fail();
  }
  return fail();
}

function domainLiteral(p: Cursor): void {
  const close = p.s.indexOf("]");
  if (close < 0) fail();
  const text = p.s.slice(1, close);
  if ([...text].some((c) => c === "[" || c === "\\" || !isVchar(c))) fail();
  if (!isGoIP(text)) fail();
  p.s = p.s.slice(close + 1);
}

/** local-part `@` domain; on failure the cursor is left where it was. */
function addrSpec(p: Cursor): boolean {
  const start = p.s;
  try {
    p.skipSpace();
    if (p.empty) fail();
    if (p.peek() === '"') {
      if (quotedString(p) === "") fail();
    } else atom(p, false);
    if (!p.consume("@")) fail();
    p.skipSpace();
    if (p.empty) fail();
    if (p.peek() === "[") domainLiteral(p);
    else atom(p, false);
    return true;
  } catch (e) {
    if (!(e instanceof Fail)) throw e;
    p.s = start;
    return false;
  }
}

/** Go's consumeComment after the `(`: nested parentheses, `\` quotes the next character. */
function comment(p: Cursor): boolean {
  let depth = 1;
  while (!p.empty && depth > 0) {
    if (p.peek() === "\\" && p.s.length > 1) p.s = p.s.slice(1);
    else if (p.peek() === "(") depth++;
    else if (p.peek() === ")") depth--;
    p.s = p.s.slice(1);
  }
  return depth === 0;
}

function skipCFWS(p: Cursor): boolean {
  p.skipSpace();
  while (p.consume("(")) {
    if (!comment(p)) return false;
    p.skipSpace();
  }
  return true;
}

/** One or more words (atoms with dots, or quoted strings), comments allowed after the first. */
function phrase(p: Cursor): void {
  let words = 0;
  for (;;) {
    if (words > 0 && !skipCFWS(p)) fail();
    p.skipSpace();
    if (p.empty) break;
    try {
      if (p.peek() === '"') quotedString(p);
      // Go reads the atom, then stops at an encoded word it cannot decode (keeping earlier words).
      else if (hasUnknownCharset(atom(p, true))) break;
    } catch (e) {
      if (!(e instanceof Fail)) throw e;
      break;
    }
    words++;
  }
  if (words === 0) fail();
}

/** A comment naming the bare address's owner: each word in it is decoded, and may fail. */
function displayNameComment(p: Cursor): void {
  const start = p.s;
  if (!comment(p)) fail();
  const text = start.slice(0, start.length - p.s.length - 1);
  if (text.split(/[ \t]+/).some(hasUnknownCharset)) fail();
}

/** Go's parseAddress: the number of addresses read (a group may hold any number). */
function address(p: Cursor, group: boolean): number {
  p.skipSpace();
  if (p.empty) fail();
  if (addrSpec(p)) {
    p.skipSpace();
    if (p.consume("(")) displayNameComment(p);
    return 1;
  }
  if (p.peek() !== "<") phrase(p);
  p.skipSpace();
  if (group && p.consume(":")) return groupList(p);
  if (!p.consume("<") || !addrSpec(p) || !p.consume(">")) fail();
  return 1;
}

function groupList(p: Cursor): number {
  p.skipSpace();
  if (p.consume(";")) {
    skipCFWS(p);
    return 0;
  }
  let n = 0;
  for (;;) {
    p.skipSpace();
    n += address(p, false);
    if (!skipCFWS(p)) fail();
    if (p.consume(";")) {
      skipCFWS(p);
      return n;
    }
    if (!p.consume(",")) fail();
  }
}

/** Whether Go's mail.ParseAddress accepts `s` as exactly one address. */
export function isEmail(s: string): boolean {
  const p = new Cursor(s);
  try {
    const n = address(p, true);
    return skipCFWS(p) && p.empty && n === 1;
  } catch (e) {
    if (e instanceof Fail) return false;
    throw e;
  }
}
