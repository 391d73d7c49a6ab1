/**
 * The manager's leadership as a {@link WorkGate}: a worker may start a reconcile only while this
 * process's leadership is fresh (see {@link LeaderElector.checkFresh}), and every reconcile it
 * admitted runs with the term's signal, which is aborted the moment leadership lapses or is lost.
 * The gate is the same for every key: leadership is per process, not per key.
 */
import { ControllerError } from "./errors.js";
import type { LeaderElector } from "./leader-election.js";
import type { WorkGate } from "./work-gate.js";

export function leadershipGate(elector: LeaderElector): WorkGate {
  return {
    admits: () => elector.checkFresh(),
    signal: () =>
      elector.termSignal ??
      AbortSignal.abort(new ControllerError("LEADERSHIP_LOST", `${elector.identity} is not leading`)),
  };
}
