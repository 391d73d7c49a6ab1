/**
 * Index lists of Indexed Jobs ("1,3-5,7"), as a Job's status.completedIndexes and failedIndexes
 * write them: increasing intervals of indexes below spec.completions. The errors are upstream's
 * words (batch validation's validateIndexesFormat and the overlap check).
 */

type Interval = readonly [number, number];

/** One "x" or "x-y" fragment, or the reason it is no interval. */
function parseInterval(fragment: string, completions: number): Interval | string {
  const parts = fragment.split("-");
  if (parts.length > 2)
    return `the fragment ${JSON.stringify(fragment)} violates the requirement that an index interval can have at most two parts separated by '-'`;
  const bounds: number[] = [];
  for (const part of parts) {
    // strconv.Atoi: an optional sign and decimal digits.
    if (!/^[+-]?\d+$/.test(part))
      return `cannot convert string to integer for index: ${JSON.stringify(part)}`;
    if (Number(part) >= completions) return `too large index: ${JSON.stringify(part)}`;
    bounds.push(Number(part));
  }
  const [x, y = x] = bounds as [number, number?];
  if (parts.length > 1 && x >= y) return `non-increasing order, previous: ${x}, current: ${y}`;
  return [x, y];
}

/** Why the list is malformed, or undefined when it is well formed (an empty list is). */
export function indexesProblem(list: string, completions: number): string | undefined {
  if (list === "") return undefined;
  let last: number | undefined;
  for (const fragment of list.split(",")) {
    const interval = parseInterval(fragment, completions);
    if (typeof interval === "string") return interval;
    if (last !== undefined && last >= interval[0])
      return `non-increasing order, previous: ${last}, current: ${interval[0]}`;
    last = interval[1];
  }
  return undefined;
}

/** Why failed and completed indexes overlap (at the first shared index), or undefined. */
export function indexesOverlap(completed: string, failed: string, completions: number): string | undefined {
  if (completed === "" || failed === "") return undefined;
  // Malformed fragments are skipped here: the format check reports them.
  const parsed = (list: string) =>
    list
      .split(",")
      .map((f) => parseInterval(f, completions))
      .filter((i): i is Interval => typeof i !== "string");
  for (const [cx, cy] of parsed(completed))
    for (const [fx, fy] of parsed(failed))
      if (cx <= fy && fx <= cy)
        return `failedIndexes and completedIndexes overlap at index: ${Math.max(cx, fx)}`;
  return undefined;
}
