/**
 * Each request gets an abort signal of its own, aborted with the caller's, and unhooked from the
 * caller's as soon as the request is over. undici keeps a listener on the signal it is given until
 * the response's stream closes; a caller's signal is often long-lived (an informer's lives as long
 * as the informer) and is then shared by overlapping requests (a list page asked for while the one
 * before is decoded). Measured on a paged sync of 50,000 objects (docs/performance-history.md, "Fourth
 * pass: one abort signal per request"): giving undici the long-lived signal itself doubled the
 * response buffers awaiting collection (~50 vs ~23 MiB at peak) and cost about a fifth of the sync's
 * time; with a signal per request the overlap costs nothing.
 */

export interface RequestSignal {
  /** The signal to give the request (undefined when the caller gave none). */
  readonly signal: AbortSignal | undefined;
  /** Unhooks it from the caller's signal; call once the request is over (idempotent). */
  release(): void;
}

const none: RequestSignal = { signal: undefined, release: () => {} };

export function requestSignal(caller: AbortSignal | undefined): RequestSignal {
  if (caller === undefined) return none;
  if (caller.aborted) return { signal: caller, release: () => {} };
  const own = new AbortController();
  const abort = () => own.abort(caller.reason);
  caller.addEventListener("abort", abort, { once: true });
  return { signal: own.signal, release: () => caller.removeEventListener("abort", abort) };
}
