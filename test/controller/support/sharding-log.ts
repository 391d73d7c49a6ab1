/**
 * Reading and checking the shared reconcile log of sharding-processes.test.ts (lines
 * `identity key start end`, end "-" for a reconcile that was not allowed to commit).
 */
import { readFileSync } from "node:fs";
import { shardOwner } from "@kubesdk/controller";

export interface LoggedReconcile {
  readonly id: string;
  readonly key: string;
  readonly start: bigint;
  /** undefined: the reconcile did not commit (fenced out). */
  readonly end: bigint | undefined;
}

export function parseLine(line: string): LoggedReconcile | undefined {
  const [id, key, start, end] = line.trim().split(" ");
  if (id === undefined || key === undefined || start === undefined || end === undefined) return undefined;
  return { id, key, start: BigInt(start), end: end === "-" ? undefined : BigInt(end) };
}

export function readLog(path: string): LoggedReconcile[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .map(parseLine)
    .filter((r): r is LoggedReconcile => r !== undefined);
}

/** Committed reconciles of one key by two identities whose intervals overlap. */
export function overlaps(log: readonly LoggedReconcile[]): string[] {
  const byKey = new Map<string, LoggedReconcile[]>();
  for (const r of log) if (r.end !== undefined) byKey.set(r.key, [...(byKey.get(r.key) ?? []), r]);
  const problems: string[] = [];
  for (const [key, list] of byKey) {
    list.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
    const maxEnd = new Map<string, bigint>();
    for (const r of list) {
      for (const [id, end] of maxEnd)
        if (id !== r.id && end > r.start)
          problems.push(`${key}: ${r.id} started ${(end - r.start) / 1000n} µs before ${id} ended`);
      maxEnd.set(
        r.id,
        (r.end as bigint) > (maxEnd.get(r.id) ?? 0n) ? (r.end as bigint) : (maxEnd.get(r.id) as bigint),
      );
    }
  }
  return problems;
}

/** A membership, in force from `at` (the parent's hrtime when it made the change). */
export interface Phase {
  readonly what: string;
  readonly members: readonly string[];
  readonly at: bigint;
}

/**
 * Every committed reconcile after a change was made by the key's owner before or after that change:
 * a key whose owner did not change never moved, not even for a moment.
 */
export function strayReconciles(log: readonly LoggedReconcile[], phases: readonly Phase[]): string[] {
  const problems: string[] = [];
  for (const r of log) {
    if (r.end === undefined) continue;
    let i = -1;
    while (i + 1 < phases.length && (phases[i + 1] as Phase).at <= r.start) i++;
    if (i < 0) continue;
    const allowed = new Set([shardOwner(r.key, (phases[i] as Phase).members)]);
    if (i > 0) allowed.add(shardOwner(r.key, (phases[i - 1] as Phase).members));
    if (!allowed.has(r.id))
      problems.push(
        `${r.key} reconciled by ${r.id} during "${(phases[i] as Phase).what}" (owners: ${[...allowed]})`,
      );
  }
  return problems;
}
