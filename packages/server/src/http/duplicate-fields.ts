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
  try {
    scanner.value("");
  } catch {
    // Not JSON (JSON.parse would have failed first): nothing to report.
    return [];
  }
  return scanner.found;
}

const SCALAR_END = /[\s,}\]]/;
const join = (parent: string, key: string) => (parent === "" ? key : `${parent}.${key}`);

class DuplicateScanner {
  readonly found: string[] = [];
  private i = 0;
  /** The next backslash at or after some earlier position; searched again once passed (linear overall). */
  private backslash = -1;

  constructor(private readonly text: string) {}

  value(path: string): void {
    this.skipSpace();
    const c = this.text[this.i];
    if (c === "{") this.object(path);
    else if (c === "[") this.array(path);
    else if (c === '"') this.readString();
    else while (this.i < this.text.length && !SCALAR_END.test(this.text[this.i] as string)) this.i++;
  }

  private object(path: string): void {
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
      const p = join(path, key);
      if (seen.has(key)) this.found.push(p);
      seen.add(key);
      this.skipSpace();
      this.i++; // colon
      this.value(p);
      this.skipSpace();
      if (this.text[this.i++] === "}") return;
    }
  }

  private array(path: string): void {
    this.i++;
    this.skipSpace();
    if (this.text[this.i] === "]") {
      this.i++;
      return;
    }
    for (let n = 0; ; n++) {
      this.value(`${path}[${n}]`);
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
