/**
 * Waits at least `ms` by the monotonic clock; resolves false at once if (or when) the signal aborts,
 * true otherwise. A timer may fire a little early, so the rest is waited out: "waited at least
 * Retry-After" holds exactly. The timer and the abort listener are always cleaned up.
 */
export async function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  const end = performance.now() + ms;
  let left = ms;
  do {
    if (!(await timer(Math.max(0, Math.ceil(left)), signal))) return false;
    left = end - performance.now();
  } while (left > 0);
  return true;
}

function timer(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(handle);
      resolve(false);
    };
    const handle = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
