/**
 * Fence: what a runtime write (status, finalizers, events, `guardedApply`) checks, synchronously,
 * right before it goes out, so a reconcile whose permission lapsed (leadership no longer fresh)
 * cannot write any more.
 *
 * Contract: `check()` throws the reason the reconcile's `signal` was aborted with (a
 * `ControllerError` `LEADERSHIP_LOST` for leadership) as soon as a gate that admitted the
 * reconcile would no longer admit it — also before a timer has had the chance to abort `signal`
 * (after a pause the event loop may deliver a response before it runs overdue timers). A
 * `ReconcileRequest` is a Fence; a bare `AbortSignal` is accepted too and only checked for
 * being aborted.
 */
export interface Fence {
  readonly signal: AbortSignal;
  check(): void;
}

/** Throws if the fence (or signal) says the write must not go out; returns the signal to send with. */
export function passFence(fence: Fence | AbortSignal | undefined): AbortSignal | undefined {
  if (fence === undefined) return undefined;
  if (fence instanceof AbortSignal) {
    fence.throwIfAborted();
    return fence;
  }
  fence.check();
  return fence.signal;
}
