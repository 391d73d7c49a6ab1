/** Reads selection.txt: which upstream [Conformance] tests the run includes, and why the others are left out. */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface SelectedTest {
  /** The spec's full ginkgo text, as in upstream's conformance.yaml. */
  readonly name: string;
  readonly run: boolean;
  /** Why the test is left out (the reason id after `skip:`). */
  readonly skipReason?: string;
  /** [Serial] tests run alone. */
  readonly serial: boolean;
}

export const SELECTION_PATH = join(import.meta.dirname, "selection.txt");

export function parseSelection(text: string): SelectedTest[] {
  const tests: SelectedTest[] = [];
  for (const [i, raw] of text.split("\n").entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const bar = line.indexOf(" | ");
    const decision = line.slice(0, bar);
    const name = line.slice(bar + 3);
    if (bar < 0 || !(decision === "run" || decision.startsWith("skip:")))
      throw new Error(`selection.txt:${i + 1}: expected "run | <test>" or "skip:<reason> | <test>"`);
    const serial = name.includes("[Serial]");
    if (decision === "run") tests.push({ name, run: true, serial });
    else tests.push({ name, run: false, skipReason: decision.slice(5), serial });
  }
  return tests;
}

export function readSelection(path = SELECTION_PATH): SelectedTest[] {
  return parseSelection(readFileSync(path, "utf8"));
}
