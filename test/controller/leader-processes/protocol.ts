/**
 * The shared log of the cross-process leader suite and the properties checked on it. Every line is
 * stamped with CLOCK_MONOTONIC nanoseconds by the process that wrote it at the moment it describes
 * (candidate.ts, scripts/client-go-check/leader/main.go), so times compare across processes.
 *
 * The checks are about the protocol, not about how fast the machine is: each compares two events
 * of the log with a duration taken from the Lease record or the candidate's configuration, and no
 * check adds an allowance for scheduling.
 */
import { existsSync, readFileSync } from "node:fs";

/** A reconcile: "work" passed its fence (checked at `checked`, logged at `end`), "fenced" was refused. */
export interface WorkEntry {
  readonly id: string;
  readonly kind: "work" | "fenced";
  readonly start: bigint;
  /** Read right before the fence check (kubesdk candidates only). */
  readonly checked?: bigint;
  readonly end: bigint;
}

/** The elector saw a changed Lease record: its holder ("" when none) and published duration. */
export interface ObservedEntry {
  readonly id: string;
  readonly kind: "observed";
  readonly at: bigint;
  readonly holder: string;
  readonly leaseSeconds: number;
}

export interface EventEntry {
  readonly id: string;
  readonly kind: "ready" | "leading" | "stopped" | "exited" | "round" | "write" | "renewed";
  readonly at: bigint;
}

export type LogEntry = WorkEntry | ObservedEntry | EventEntry;

const NUMBER = /^\d+$/;

function parseLine(line: string): LogEntry | undefined {
  const f = line.split(" ");
  const [id, a, b, c, d] = f as [string, string, string, string?, string?];
  if (f.length === 3 && NUMBER.test(a)) return { id, kind: "work", start: BigInt(a), end: BigInt(b) };
  if (f.length === 4 && NUMBER.test(a))
    return { id, kind: "work", start: BigInt(a), checked: BigInt(b), end: BigInt(c as string) };
  if (f.length === 4 && a === "fenced")
    return { id, kind: "fenced", start: BigInt(b), end: BigInt(c as string) };
  if (f.length === 5 && a === "observed")
    return {
      id,
      kind: "observed",
      at: BigInt(b),
      holder: c === "-" ? "" : (c as string),
      leaseSeconds: Number(d),
    };
  if (f.length === 3) return { id, kind: a as EventEntry["kind"], at: BigInt(b) };
  return undefined;
}

export function parseLog(path: string): LogEntry[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .map(parseLine)
    .filter((e): e is LogEntry => e !== undefined);
}

/** CLOCK_MONOTONIC nanoseconds, the clock every candidate logs with. */
export const monotonicNow = (): bigint => process.hrtime.bigint();

export const ms = (ns: bigint): number => Number(ns) / 1e6;

const MS = 1_000_000n;

/** Pairs of work intervals of different identities that overlap (the safety property). */
export function overlaps(entries: readonly LogEntry[]): string[] {
  const work = entries
    .filter((e): e is WorkEntry => e.kind === "work")
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const problems: string[] = [];
  let latest: { end: bigint; id: string } | undefined;
  for (const w of work) {
    if (latest !== undefined && w.start < latest.end && w.id !== latest.id)
      problems.push(`${w.id} started at ${w.start} while ${latest.id} reconciled until ${latest.end}`);
    if (latest === undefined || w.end > latest.end) latest = { end: w.end, id: w.id };
  }
  return problems;
}

const events = (entries: readonly LogEntry[], id: string, kind: EventEntry["kind"]): EventEntry[] =>
  entries.filter((e): e is EventEntry => e.id === id && e.kind === kind);

const lastBefore = <T extends { at: bigint }>(list: readonly T[], t: bigint): T | undefined =>
  list.filter((e) => e.at <= t).at(-1);

/**
 * The fence, seen from outside: every reconcile of a kubesdk candidate passed its fence less than
 * `renewMs` after the start of the candidate's last successful acquire/renew round (the "round" line
 * before the last "renewed" line logged before the check) — the renew deadline counted from when
 * the renewal was sent, as the Lease's holder-side contract says. Returns the violations.
 */
export function fenceViolations(entries: readonly LogEntry[], renewMs: number): string[] {
  const problems: string[] = [];
  for (const w of entries) {
    if (w.kind !== "work" || w.checked === undefined) continue;
    const renewed = lastBefore(events(entries, w.id, "renewed"), w.checked);
    const round = renewed && lastBefore(events(entries, w.id, "round"), renewed.at);
    if (round === undefined) problems.push(`${w.id} reconciled at ${w.checked} without a renewal`);
    else if (w.checked - round.at >= BigInt(renewMs) * MS)
      problems.push(
        `${w.id} passed its fence ${ms(w.checked - round.at)} ms after its last renewal was sent`,
      );
  }
  return problems;
}

/** How `id` came to lead after `since`: the write that took the Lease and the record it replaced. */
export interface Takeover {
  readonly leading: bigint;
  /** The acquiring write was sent. */
  readonly write: bigint;
  /** The round that sent it started. */
  readonly round: bigint;
  /** The last change of the record the winner saw before writing (the previous holder's). */
  readonly observed: ObservedEntry;
  /** The winner's previous round, if it started after `observed` (it found the Lease still held). */
  readonly previousRound: bigint | undefined;
}

export function takeover(entries: readonly LogEntry[], id: string, since: bigint): Takeover {
  const leading = events(entries, id, "leading").find((e) => e.at > since);
  if (leading === undefined) throw new Error(`${id} logged no "leading" after ${since}`);
  const write = lastBefore(events(entries, id, "write"), leading.at);
  const rounds = events(entries, id, "round");
  const round = write && lastBefore(rounds, write.at);
  const observed =
    write &&
    entries
      .filter((e): e is ObservedEntry => e.id === id && e.kind === "observed" && e.at <= write.at)
      .filter((e) => e.holder !== id)
      .at(-1);
  if (write === undefined || round === undefined || observed === undefined)
    throw new Error(`${id}: no traced round, observation and write before leading at ${leading.at}`);
  const previous = rounds.filter((r) => r.at < round.at).at(-1);
  return {
    leading: leading.at,
    write: write.at,
    round: round.at,
    observed,
    previousRound: previous !== undefined && previous.at > observed.at ? previous.at : undefined,
  };
}

/**
 * client-go's acquisition rule (tools/leaderelection, isLeaseValid), checked on one takeover: a
 * record naming another holder may be replaced only once the duration *that record* publishes has
 * passed since this candidate first saw it, on its own monotonic clock (`leaseSeconds` from the
 * record, `observed.at` no later than the elector's own observed time, so the check is never looser
 * than the rule). An empty holder (a released Lease) may be taken at once.
 */
export function acquiredTooEarly(t: Takeover): string | undefined {
  if (t.observed.holder === "") return undefined;
  const expiry = t.observed.at + BigInt(t.observed.leaseSeconds * 1000) * MS;
  return t.write >= expiry
    ? undefined
    : `wrote ${ms(expiry - t.write)} ms before ${t.observed.holder}'s published ${t.observed.leaseSeconds} s expired`;
}

/**
 * Promptness, the other half of client-go's bound: the candidate took the Lease in its first round
 * that could (the rounds in between found it held: they started before the published expiry, or
 * for a released Lease there was none). With every follower polling each retry period, the
 * takeover therefore comes at most one observation round + the published duration + one round
 * after the holder's last renewal; the rounds' own lengths are the server's and the machine's, so
 * the suite bounds the count of rounds, not the seconds.
 */
export function missedRound(t: Takeover): string | undefined {
  if (t.previousRound === undefined) return undefined;
  const expiry = t.observed.at + BigInt(t.observed.leaseSeconds * 1000) * MS;
  if (t.observed.holder !== "" && t.previousRound < expiry) return undefined;
  return `a round at ${t.previousRound} found the Lease takeable (expiry ${expiry}) and did not take it`;
}
