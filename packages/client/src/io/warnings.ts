/**
 * Warnings the API server attaches to responses (`Warning: 299 - "unknown field \"spec.x\""`), e.g.
 * for deprecated APIs or fields dropped under `fieldValidation=Warn`.
 */

/** One warning and the request it came with. */
export interface ApiWarning {
  readonly text: string;
  readonly method: string;
  readonly path: string;
}

// warn-code SP warn-agent SP quoted-text [SP quoted-date]; several may share one header, comma-separated.
const WARNING = /(\d{3}) (\S+) "((?:[^"\\]|\\.)*)"(?: "[^"]*")?/g;

/** The texts of every warning in the Warning header values, unescaped, in order. */
export function parseWarnings(values: string | readonly string[] | undefined): string[] {
  if (values === undefined) return [];
  const texts: string[] = [];
  for (const value of typeof values === "string" ? [values] : values) {
    for (const match of value.matchAll(WARNING)) texts.push((match[3] ?? "").replace(/\\(.)/g, "$1"));
  }
  return texts;
}
