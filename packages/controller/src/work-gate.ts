/**
 * WorkGate: a permission a controller's worker checks, synchronously, before it starts
 * reconciling a key, and whose lapse aborts the reconciles it admitted.
 *
 * Contract:
 * - `admits(key)` is called at the moment a worker takes `key` from the queue; it must not
 *   await. `false` means the worker must not start the reconcile now.
 * - `signal(key)` is aborted no later than the moment `admits(key)` would first answer
 *   `false` (the permission lapsed); a reconcile admitted by this gate runs with it.
 */
export interface WorkGate {
  admits(key: string): boolean;
  signal(key: string): AbortSignal;
}
