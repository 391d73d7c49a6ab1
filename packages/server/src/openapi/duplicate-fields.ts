/**
 * Duplicate keys in a JSON document, reported as Go's strict decoder
 * (sigs.k8s.io/json) reports them: `spec.replicas`, `items[0].name`.
 * JSON.parse keeps the last of duplicate keys silently, so the text has to
 * be scanned. Hand-written: a small scanner over text JSON.parse has
 * already accepted, so it only tracks strings, nesting and keys.
 */
export function findDuplicateFields(text: string): string[] {
  const found: string[] = [];
  let i = 0;

  const skipSpace = () => {
    while (i < text.length && /\s/.test(text[i] as string)) i++;
  };
  const readString = (): string => {
    const start = i;
    i++; // opening quote
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++; // closing quote
    return JSON.parse(text.slice(start, i)) as string;
  };
  const join = (parent: string, key: string) => (parent === "" ? key : `${parent}.${key}`);

  const value = (path: string): void => {
    skipSpace();
    const c = text[i];
    if (c === "{") {
      i++;
      const seen = new Set<string>();
      skipSpace();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        skipSpace();
        const key = readString();
        const p = join(path, key);
        if (seen.has(key)) found.push(p);
        seen.add(key);
        skipSpace();
        i++; // colon
        value(p);
        skipSpace();
        if (text[i++] === "}") return;
      }
    }
    if (c === "[") {
      i++;
      skipSpace();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (let n = 0; ; n++) {
        value(`${path}[${n}]`);
        skipSpace();
        if (text[i++] === "]") return;
      }
    }
    if (c === '"') {
      readString();
      return;
    }
    while (i < text.length && !/[\s,}\]]/.test(text[i] as string)) i++;
  };

  try {
    value("");
  } catch {
    // Not JSON (JSON.parse would have failed first): nothing to report.
    return [];
  }
  return found;
}
