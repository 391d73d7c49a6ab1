/**
 * Runs a handler under a deadline. The handler gets an AbortSignal that fires at the deadline; the
 * caller gets either the handler's value, its error, or "timeout" — whichever comes first — so a
 * handler that never settles cannot hold an answer past the API server's own timeout.
 */

export type Outcome<T> =
  | { readonly kind: "value"; readonly value: T }
  | { readonly kind: "error"; readonly error: unknown }
  | { readonly kind: "timeout"; readonly ms: number };

export async function runWithDeadline<T>(
  ms: number,
  handler: (signal: AbortSignal) => T | Promise<T>,
): Promise<Outcome<T>> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<Outcome<T>>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`webhook handler deadline of ${ms} ms passed`));
      resolve({ kind: "timeout", ms });
    }, ms);
  });
  const run = (async (): Promise<Outcome<T>> => {
    try {
      return { kind: "value", value: await handler(controller.signal) };
    } catch (error) {
      return { kind: "error", error };
    }
  })();
  try {
    return await Promise.race([run, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The handler deadline for one request: the configured one, but never later than 80% of the
 * timeout the API server announces in the `timeout` query parameter (a Go duration such as "10s"),
 * so the answer reaches the server before it gives up.
 */
export function handlerDeadlineMs(configuredMs: number, timeoutParam: string | null): number {
  const announced = timeoutParam === null ? undefined : parseGoDuration(timeoutParam);
  if (announced === undefined || announced <= 0) return configuredMs;
  return Math.max(1, Math.min(configuredMs, Math.floor(announced * 0.8)));
}

const UNIT_MS: Record<string, number> = {
  h: 3_600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
  us: 0.001,
  µs: 0.001,
  ns: 1e-6,
};

/** Milliseconds of a Go duration string ("10s", "1m30s", "500ms"); undefined when it is not one. */
export function parseGoDuration(text: string): number | undefined {
  const parts = text.match(/(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g);
  if (parts === null || parts.join("") !== text) return undefined;
  let total = 0;
  for (const part of parts) {
    const [, amount, unit] = part.match(/^(\d+(?:\.\d+)?)(.+)$/) as RegExpMatchArray;
    total += Number(amount) * (UNIT_MS[unit as string] as number);
  }
  return total;
}
