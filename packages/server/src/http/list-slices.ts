/** How big-list encoding shares the event loop with other requests (list-encode.ts). */

/** Roughly how long one slice of encoding may hold the event loop. */
export const SLICE_MS = 8;

export const yieldToOthers = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
