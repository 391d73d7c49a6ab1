/**
 * A replay's walk over the frame log by groups (label-groups.ts) instead of by events: for a JSON
 * watch whose filter reads only namespace and labels, of a resource shown as stored, every ADDED
 * frame of one group is shown, or not, alike. Each group is judged once, on its first event, by
 * the per-event rule; then a stretch of the log whose frames are exactly the next events is taken
 * or skipped frame by frame from numbers, shown frames joined as views in one call. Anything else
 * (a frame with no group, an event the log does not hold, a group whose frames the watch shows
 * other than as logged) ends the stretch, and the per-event path (replay-join.ts) takes it.
 */
import type { StoreEvent } from "../storage/mvcc.js";
import type { FrameLogCursor } from "./frame-log.js";
import { NO_GROUP } from "./label-groups.js";
import type { FrameJoin } from "./replay-frames.js";

/** How a replay shows a group's frames: as logged, not at all, or per event (replay-join.ts). */
export const SHOWN = 1;
export const HIDDEN = 2;
export const PER_EVENT = 3;
export type Verdict = typeof SHOWN | typeof HIDDEN | typeof PER_EVENT;

/** One replay's judgements, per group. */
export class GroupVerdicts {
  private readonly verdicts = new Map<number, Verdict>();

  /** `judge` tells how the watch shows one event of a group (all of the group the same). */
  constructor(private readonly judge: (e: StoreEvent) => Verdict) {}

  of(group: number, e: StoreEvent): Verdict {
    let v = this.verdicts.get(group);
    if (v === undefined) {
      v = this.judge(e);
      this.verdicts.set(group, v);
    }
    return v;
  }
}

/**
 * From the frame the cursor found (that of events[k]): the frames after it in its chunk that are
 * the next events, one by one, while each is in a group judged SHOWN or HIDDEN. Returns how many
 * events it took (0: events[k] needs the per-event path).
 */
export function joinStretch(
  log: FrameLogCursor,
  events: readonly StoreEvent[],
  k: number,
  verdicts: GroupVerdicts,
  join: FrameJoin,
): number {
  const { buf, revs, ends, groups } = log.frames;
  const first = log.at;
  let shownFrom = -1;
  let i = first;
  for (; i < revs.length; i++, k++) {
    const e = events[k];
    const group = groups[i] as number;
    if (e === undefined || e.rev !== revs[i] || group === NO_GROUP) break;
    const v = verdicts.of(group, e);
    if (v === PER_EVENT) break;
    if (v === SHOWN) {
      if (shownFrom < 0) shownFrom = i;
    } else if (shownFrom >= 0) {
      join.logFrames(buf, ends, shownFrom, i);
      shownFrom = -1;
    }
  }
  if (shownFrom >= 0) join.logFrames(buf, ends, shownFrom, i);
  return i - first;
}
