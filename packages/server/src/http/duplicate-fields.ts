/**
 * Duplicate keys in a JSON document, reported as Go's strict decoder
 * (sigs.k8s.io/json) reports them: `spec.replicas`, `items[0].name`.
 * JSON.parse keeps the last of duplicate keys silently, so the text has to
 * be scanned. Hand-written: a small scanner over text JSON.parse has
 * already accepted (and whose depth the body decoder has bounded), so it
 * only tracks strings, nesting and keys.
 */
export function findDuplicateFields(text: string): string[] {
  const scanner = new DuplicateScanner(text);
  return scanner.scan(true) ? scanner.found : [];
}

const SCALAR_END = /[\s,}\]]/;
export const joinField = (parent: string, key: string) => (parent === "" ? key : `${parent}.${key}`);

/**
 * Walks a JSON text key by key in document order, carrying a context `C` down the tree (a type,
 * for a typed walk). Subclasses decide at each key what to report and which context the value
 * gets; a value without context is skipped, nothing inside it is looked at.
 */
export abstract class JsonKeyScanner<C> {
  private i = 0;
  /** The next backslash at or after some earlier position; searched again once passed (linear overall). */
  private backslash = -1;

  constructor(private readonly text: string) {}

  /** The context of `key`'s value in an object of context `ctx`; `seen` holds the object's earlier keys. */
  protected abstract member(ctx: C, path: string, key: string, seen: Set<string>): C | undefined;

  /** The context of an array element in an array of context `ctx`. */
  protected abstract element(ctx: C): C | undefined;

  /** Scans the whole text; false when it is not JSON (JSON.parse would have failed first). */
  scan(root: C): boolean {
    try {
      this.value(root, "");
      return true;
    } catch {
      return false;
    }
  }

  private value(ctx: C | undefined, path: string): void {
    this.skipSpace();
    const c = this.text[this.i];
    if (c === "{") this.object(ctx, path);
    else if (c === "[") this.array(ctx, path);
    else if (c === '"') this.readString();
    else while (this.i < this.text.length && !SCALAR_END.test(this.text[this.i] as string)) this.i++;
  }

  private object(ctx: C | undefined, path: string): void {
    this.i++;
    const seen = new Set<string>();
    this.skipSpace();
    if (this.text[this.i] === "}") {
      this.i++;
      return;
    }
    for (;;) {
      this.skipSpace();
      const key = this.readString();
      const p = joinField(path, key);
      const child = ctx === undefined ? undefined : this.member(ctx, path, key, seen);
      this.skipSpace();
      this.i++; // colon
      this.value(child, p);
      this.skipSpace();
      if (this.text[this.i++] === "}") return;
    }
  }

  private array(ctx: C | undefined, path: string): void {
    this.i++;
    this.skipSpace();
    if (this.text[this.i] === "]") {
      this.i++;
      return;
    }
    const item = ctx === undefined ? undefined : this.element(ctx);
    for (let n = 0; ; n++) {
      this.value(item, `${path}[${n}]`);
      this.skipSpace();
      if (this.text[this.i++] === "]") return;
    }
  }

  private nextBackslash(from: number): number {
    const at = this.text.indexOf("\\", from);
    return at < 0 ? Number.POSITIVE_INFINITY : at;
  }

  private skipSpace(): void {
    // JSON's whitespace: space, tab, line feed, carriage return.
    for (let c = this.text.charCodeAt(this.i); c === 32 || c === 9 || c === 10 || c === 13; )
      c = this.text.charCodeAt(++this.i);
  }

  private readString(): string {
    const start = this.i;
    let escaped = false;
    this.i++; // opening quote
    for (;;) {
      const quote = this.text.indexOf('"', this.i);
      if (quote < 0) throw new Error("unterminated string");
      if (this.backslash < this.i) this.backslash = this.nextBackslash(this.i);
      if (this.backslash > quote) {
        this.i = quote + 1; // past the closing quote
        break;
      }
      escaped = true;
      this.i = this.backslash + 2;
    }
    // Only a string with escapes needs decoding (the text is JSON that JSON.parse accepted).
    return escaped
      ? (JSON.parse(this.text.slice(start, this.i)) as string)
      : this.text.slice(start + 1, this.i - 1);
  }
}

/** Every repeated key of every object, each time it repeats. */
class DuplicateScanner extends JsonKeyScanner<true> {
  readonly found: string[] = [];

  protected member(ctx: true, path: string, key: string, seen: Set<string>): true {
    if (seen.has(key)) this.found.push(joinField(path, key));
    seen.add(key);
    return ctx;
  }

  protected element(ctx: true): true {
    return ctx;
  }
}
