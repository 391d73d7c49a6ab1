/** The reflector's configuration, its sink and its states (see reflector.ts). */
import type { Backoff } from "./backoff.js";
import type { ListReason, ReflectorEvents } from "./events.js";
import type { ListerWatcher } from "./list-watcher.js";
import type { PageRequest } from "./page-request.js";
import type { ListFrom, ListPlan } from "./reactions.js";

/** Where the reflector delivers what it learns. Implementations must not throw. */
export interface ReflectorSink<T> {
  /** The complete state at `resourceVersion` (a list, or a streaming list's initial events). */
  replace(items: readonly T[], resourceVersion: string, initial: boolean): void;
  /**
   * One watch event. Returns true when handlers have fallen behind by a batch: the reflector then
   * lets them run (a microtask turn) before it applies the next event of the same chunk.
   */
  apply(
    type: "ADDED" | "MODIFIED" | "DELETED",
    obj: T,
    resourceVersion: string | undefined,
    // biome-ignore lint/suspicious/noConfusingVoidType: a sink that never asks for a pause returns nothing
  ): boolean | void;
  bookmark(resourceVersion: string): void;
}

export type ReflectorEmit = <K extends keyof ReflectorEvents>(name: K, ...args: ReflectorEvents[K]) => void;

export interface ReflectorConfig<T> {
  readonly listerWatcher: ListerWatcher<T>;
  /** Objects of another kind are reported and skipped; undefined accepts any kind. */
  readonly expectedKind: string | undefined;
  /** Page size of lists from the latest state; undefined lists in one response. */
  readonly pageSize: number | undefined;
  /** Later pages are sized for about this many bytes (0: every page holds pageSize objects). */
  readonly pageBytes: number;
  readonly streamingList: boolean;
  readonly watchTimeoutSeconds: { readonly min: number; readonly max: number };
  readonly idleTimeoutMs: number;
  readonly minWatchDurationMs: number;
  readonly backoff: Backoff;
  readonly random: () => number;
  readonly transform: ((obj: T) => T) | undefined;
}

/** The reflector's states (see the diagram above). */
export type ReflectorState<T> =
  | { readonly kind: "Empty"; readonly resourceVersion: string | undefined; readonly reason: ListReason }
  | {
      readonly kind: "InitPage";
      readonly plan: ListPlan;
      readonly reason: ListReason;
      readonly continueToken: string | undefined;
      /** The request for the page at `continueToken`, sent before the previous page was taken in. */
      readonly prefetched?: PageRequest<T>;
      /** Objects of the pages so far (filled in place). */
      readonly items: T[];
      readonly pages: number;
      readonly startedAt: number;
    }
  | { readonly kind: "InitListed"; readonly items: T[]; readonly resourceVersion: string }
  | {
      readonly kind: "StreamingList";
      readonly resourceVersion: string | undefined;
      readonly reason: ListReason;
    }
  | { readonly kind: "Watching"; readonly resourceVersion: string }
  | {
      readonly kind: "Backoff";
      readonly delayMs: number;
      readonly reason: string;
      readonly retryAfterMs: number | undefined;
      readonly then: ReflectorState<T>;
    }
  | { readonly kind: "Stopped" };

/** The state of one kind, as each step of the reflector takes it. */
export type StateOf<T, K extends ReflectorState<T>["kind"]> = Extract<ReflectorState<T>, { kind: K }>;

/**
 * The state after a watch ended and the decision is to watch again (at the last resourceVersion
 * seen; a list when none was ever seen) or to list again (from there, or from the latest state).
 */
export function stateAfterWatch<T>(
  reaction: { readonly next: "watch" } | { readonly next: "list"; readonly from: ListFrom },
  lastResourceVersion: string | undefined,
  reason: ListReason,
): ReflectorState<T> {
  if (reaction.next === "watch")
    return lastResourceVersion === undefined
      ? { kind: "Empty", resourceVersion: undefined, reason }
      : { kind: "Watching", resourceVersion: lastResourceVersion };
  return {
    kind: "Empty",
    resourceVersion: reaction.from === "last" ? lastResourceVersion : undefined,
    reason,
  };
}
