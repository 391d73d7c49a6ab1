/**
 * Quoted regions for `pnpm docs:check`: a code block whose fence says `from=PATH#NAME` must equal the
 * lines between `// #region NAME` and `// #endregion NAME` of PATH (relative to the repository root),
 * so a guide can show a file that CI runs (an example suite) without the two drifting apart.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The `from=` fence word's value, checked for shape. */
export const regionWord = /^from=([\w./-]+)#([\w-]+)$/;

/** The text of region `name` in `file`, or an error naming what is missing. */
function regionText(root: string, file: string, name: string): string | Error {
  let lines: string[];
  try {
    lines = readFileSync(join(root, file), "utf8").split("\n");
  } catch {
    return new Error(`${file} does not exist`);
  }
  const start = lines.findIndex((l) => l.trim() === `// #region ${name}`);
  const end = lines.findIndex((l, i) => i > start && l.trim() === `// #endregion ${name}`);
  if (start === -1 || end === -1) return new Error(`${file} has no region "${name}"`);
  return lines.slice(start + 1, end).join("\n");
}

/** Errors for a block quoting `word` (a `from=` fence word): missing region or different text. */
export function checkQuotedRegion(root: string, where: string, word: string, code: string): string[] {
  const match = regionWord.exec(word);
  if (!match) return [`${where}: malformed fence word "${word}" (from=PATH#REGION)`];
  const [, file, name] = match as unknown as [string, string, string];
  const text = regionText(root, file, name);
  if (text instanceof Error) return [`${where}: ${text.message}`];
  if (text.trimEnd() === code.trimEnd()) return [];
  const ours = code.split("\n");
  const theirs = text.split("\n");
  const line = ours.findIndex((l, i) => l !== theirs[i]);
  return [
    `${where}: block differs from ${file}#${name} at its line ${(line === -1 ? ours.length : line) + 1}`,
  ];
}
