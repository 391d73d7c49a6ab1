/**
 * One random fault of the chaos schedules, shared by the informer's scenario 25 and the
 * controller's fault test so both face the same mix: dropped and reset streams, compactions,
 * 429/500/503/504 (too-large or not) and resets on lists and watches, latency, torn and malformed
 * frames, restarts, paused delivery and stalled streams. Namespaced faults only touch `match`;
 * compaction, restart and pausing touch the whole server.
 */
import type { RunningServer } from "@kubesdk/server";

export const FAULT_KINDS = [
  "drop",
  "reset",
  "compact",
  "fail",
  "latency",
  "tear",
  "malformed",
  "restart",
  "pause",
  "stall",
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

const FAILURES = [
  { status: 429, retryAfterSeconds: 0 },
  { status: 500 },
  { status: 503 },
  { status: 504 },
  { status: 504, tooLargeResourceVersion: true },
  { reset: true },
] as const;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface FaultStepContext {
  readonly server: RunningServer;
  /** Where namespaced faults apply. */
  readonly match: { readonly namespace: string };
  readonly random: () => number;
  /** A write that should meet a torn or malformed frame, or happen while delivery is paused. */
  readonly write: () => void | Promise<void>;
}

/** Picks one fault with `random` and applies it; pauses and stalls last a random moment. */
export async function injectRandomFault(ctx: FaultStepContext): Promise<FaultKind> {
  const { server, match, random } = ctx;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const faults = server.faults;
  const kind = pick(FAULT_KINDS);
  switch (kind) {
    case "drop":
    case "reset":
      faults.dropWatches(match, kind === "drop" ? "end" : "reset");
      break;
    case "compact":
      faults.compact();
      break;
    case "fail":
      faults.failNext(1 + Math.floor(random() * 3), pick(FAILURES), {
        ...match,
        verb: pick(["list", "watch"]),
      });
      break;
    case "latency":
      faults.addLatency(Math.floor(random() * 40), match);
      break;
    case "tear":
      faults.breakMidEvent(match);
      await ctx.write();
      break;
    case "malformed":
      faults.malformedEvent(match);
      await ctx.write();
      break;
    case "restart":
      faults.restart();
      break;
    case "pause":
      faults.pauseDelivery();
      try {
        await ctx.write();
        await sleep(random() * 30);
      } finally {
        faults.resumeDelivery();
      }
      break;
    case "stall":
      faults.stallWatches(match);
      try {
        await sleep(random() * 30);
      } finally {
        faults.unstall();
      }
      break;
  }
  return kind;
}
