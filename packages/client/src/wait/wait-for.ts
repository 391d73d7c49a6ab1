/**
 * `waitFor`: resolves once an object reaches a state, like `kubectl wait` and kube-rs's
 * `await_condition`. It lists the one object (by field selector, so a missing object is a state
 * too), then watches from the list's resourceVersion: no polling. A watch the server ends is
 * resumed from the last resourceVersion seen; one that expired (410) starts over with a list.
 */
import { isExpired } from "@kubesdk/transport/errors";
import { ClientError } from "../errors.js";
import type { ReadClient } from "../read-client.js";
import type { NoInferFrom, WaitCondition } from "./conditions.js";

export interface WaitOptions {
  /** Namespace of a namespaced object (default: the client's). */
  readonly namespace?: string;
  /** Give up after this many milliseconds with a {@link WaitTimeoutError} (default: never). */
  readonly timeoutMs?: number;
  /** Stops waiting; the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/** The awaited state was not reached in time; names what was awaited and the last state seen. */
export class WaitTimeoutError<T = unknown> extends ClientError {
  /** What was awaited, e.g. `condition Ready=True of widgets/w1`. */
  readonly awaited: string;
  /** The object as last seen; undefined if it did not exist. */
  readonly lastSeen: T | undefined;

  constructor(awaited: string, lastSeen: T | undefined, timeoutMs: number) {
    super(
      "WAIT_TIMEOUT",
      `timed out after ${timeoutMs} ms waiting for ${awaited}; last seen: ${describe(lastSeen)}`,
    );
    this.awaited = awaited;
    this.lastSeen = lastSeen;
  }
}

/** Waits until `name` satisfies the condition; resolves with the object (undefined once deleted). */
export async function waitFor<T>(
  client: ReadClient<T, { items: T[] }>,
  name: string,
  condition: WaitCondition<NoInferFrom<T>>,
  options: WaitOptions = {},
): Promise<T | undefined> {
  const awaited = `${condition.description} of ${client.requests.target.plural}/${name}`;
  const timeout = options.timeoutMs !== undefined ? AbortSignal.timeout(options.timeoutMs) : undefined;
  const signals = [options.signal, timeout].filter((s): s is AbortSignal => s !== undefined);
  const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined;
  const state: { last: T | undefined } = { last: undefined };
  try {
    return await watchUntil(client, name, condition, state, {
      ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
      ...(signal !== undefined ? { signal } : {}),
    });
  } catch (e) {
    if (timeout?.aborted && !options.signal?.aborted)
      throw new WaitTimeoutError(awaited, state.last, options.timeoutMs as number);
    if (options.signal?.aborted) throw options.signal.reason;
    throw e;
  }
}

async function watchUntil<T>(
  client: ReadClient<T, { items: T[] }>,
  name: string,
  condition: WaitCondition<T>,
  state: { last: T | undefined },
  scope: { namespace?: string; signal?: AbortSignal },
): Promise<T | undefined> {
  const fieldSelector = { "metadata.name": name };
  for (;;) {
    const list = await client.list({ ...scope, fieldSelector });
    state.last = list.items[0];
    if (condition.test(state.last)) return state.last;
    let resourceVersion = (list as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion;
    try {
      for (;;) {
        for await (const event of client.watch({
          ...scope,
          fieldSelector,
          allowWatchBookmarks: true,
          ...(resourceVersion ? { resourceVersion } : {}),
        })) {
          resourceVersion = versionOf(event.object) ?? resourceVersion;
          if (event.type === "BOOKMARK") continue;
          state.last = event.type === "DELETED" ? undefined : event.object;
          if (condition.test(state.last)) return state.last;
        }
        scope.signal?.throwIfAborted();
      }
    } catch (e) {
      if (!isExpired(e)) throw e;
    }
  }
}

function versionOf(object: unknown): string | undefined {
  const rv = (object as { metadata?: { resourceVersion?: unknown } } | null)?.metadata?.resourceVersion;
  return typeof rv === "string" && rv !== "" ? rv : undefined;
}

function describe(object: unknown): string {
  if (object === undefined) return "absent";
  const text = JSON.stringify((object as { status?: unknown }).status ?? object);
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}
