/** Parsing resourceVersion parameters and waiting for a revision the store has not reached yet. */
import { errors, failure } from "../../api/status.js";
import type { HandlerContext } from "./context.js";

/** undefined = unset, 0 = "0" (any), N = a concrete revision. */
export function parseResourceVersion(
  value: string | null | undefined,
  field = "resourceVersion",
): number | undefined {
  if (value === null || value === undefined || value === "") return undefined;
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw failure(400, "BadRequest", `invalid resource version: ${field}: Invalid value: "${value}"`);
  return Number(value);
}

/**
 * Resolves once the store has reached `rev`; rejects with upstream's 504 "Too
 * large resource version" when it has not within the configured wait.
 */
/**
 * A request's abort signal, or how to make it: a signal costs an AbortController and a close
 * listener per request, and only a read that has to wait uses it.
 */
export type SignalSource = AbortSignal | (() => AbortSignal);

export function waitForRevision(ctx: HandlerContext, rev: number, source?: SignalSource): Promise<void> {
  if (ctx.store.revision >= rev) return Promise.resolve();
  const signal = typeof source === "function" ? source() : source;
  return new Promise((resolve, reject) => {
    const done = (err?: unknown) => {
      clearTimeout(timer);
      unsubscribe();
      signal?.removeEventListener("abort", onAbort);
      err ? reject(err) : resolve();
    };
    const onAbort = () => done(errors.tooLargeResourceVersion(rev, ctx.store.revision));
    const timer = setTimeout(
      () => done(errors.tooLargeResourceVersion(rev, ctx.store.revision)),
      ctx.settings.tooLargeResourceVersionWaitMs,
    );
    const unsubscribe = ctx.store.subscribe(() => {
      if (ctx.store.revision >= rev) done();
    });
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
