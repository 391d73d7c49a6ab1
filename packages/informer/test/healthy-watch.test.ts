// Dense faults: watches that work for a while between failures must not let the backoff grow to its
// cap, and a 410 after a healthy watch is answered by listing the latest state at once.
import type { KubernetesObject } from "@kubesdk/models";
import { apiErrorFromStatus, type WatchEvent, type WatchStream } from "@kubesdk/transport";
import { describe, expect, it } from "vitest";
import { Backoff } from "../src/backoff.js";
import type { ListerWatcher, ListQuery } from "../src/list-watcher.js";
import { decideAfterListFailure, wasHealthy } from "../src/reactions.js";
import { Reflector, type ReflectorEmit } from "../src/reflector.js";
import { watchStreamOf } from "./watch-stream-of.js";

const status = (code: number, reason: string) =>
  apiErrorFromStatus(
    { kind: "Status", apiVersion: "v1", status: "Failure", message: reason, reason, code },
    { httpCode: code },
  );

const configMap = (name: string, rv: number): KubernetesObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, namespace: "ns", resourceVersion: String(rv) },
});

/** A stream that delivers `events`, then fails with `error`. */
function failingStream(events: WatchEvent<KubernetesObject>[], error: Error): WatchStream<KubernetesObject> {
  let i = 0;
  return watchStreamOf(async () => {
    const event = events[i++];
    if (event === undefined) throw error;
    return { done: false, value: event };
  });
}

interface Run {
  readonly lists: ListQuery[];
  readonly backoffs: number[];
}

/**
 * Runs a reflector over `rounds` watches, each delivering `eventsPerWatch` events and then failing
 * with `watchError`; `listError(query)` may fail a list. Stops after the last round.
 */
async function run(
  rounds: number,
  watchError: Error,
  listError: (q: ListQuery) => Error | undefined = () => undefined,
  eventsPerWatch = 1,
): Promise<Run> {
  const lists: ListQuery[] = [];
  const backoffs: number[] = [];
  const abort = new AbortController();
  let rv = 10;
  let watches = 0;
  const lw: ListerWatcher<KubernetesObject> = {
    async list(query) {
      lists.push(query);
      const error = listError(query);
      if (error !== undefined) throw error;
      return { items: [], resourceVersion: String(++rv) };
    },
    watch() {
      if (++watches > rounds) abort.abort();
      const events = Array.from({ length: eventsPerWatch }, (): WatchEvent<KubernetesObject> => {
        rv++;
        return { type: "ADDED", object: configMap(`cm-${rv}`, rv) };
      });
      return failingStream(events, watchError);
    },
  };
  const emit: ReflectorEmit = (name, ...args) => {
    if (name === "backoff") backoffs.push((args[0] as { delayMs: number }).delayMs);
  };
  const reflector = new Reflector<KubernetesObject>(
    {
      listerWatcher: lw,
      expectedKind: "ConfigMap",
      pageSize: 500,
      pageBytes: 0,
      streamingList: false,
      watchTimeoutSeconds: { min: 300, max: 300 },
      idleTimeoutMs: 0,
      minWatchDurationMs: 0,
      backoff: new Backoff({ initialMs: 1, maxMs: 64, factor: 2, jitter: 0, resetAfterMs: 3_600_000 }),
      random: () => 0,
      transform: undefined,
    },
    { replace() {}, apply() {}, bookmark() {} },
    emit,
  );
  await reflector.run(abort.signal);
  return { lists, backoffs };
}

describe("backoff under dense faults", () => {
  it("a watch that delivered events resets the backoff, so repeated 500s after healthy watches wait the first delay", async () => {
    const { backoffs } = await run(6, status(500, "InternalError"));
    expect(backoffs).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it("watches that fail before delivering anything still let the backoff grow", async () => {
    const { backoffs } = await run(5, status(500, "InternalError"), undefined, 0);
    expect(backoffs).toEqual([1, 2, 4, 8, 16]);
  });

  it("a 410 after a healthy watch relists at the last resourceVersion, then the latest state, without waiting", async () => {
    const expired = status(410, "Expired");
    const { lists, backoffs } = await run(2, expired, (q) =>
      q.resourceVersion !== undefined ? expired : undefined,
    );
    expect(backoffs).toEqual([]);
    // Initial list, then per round: at the last resourceVersion (410), then the latest state.
    expect(lists.map((q) => (q.resourceVersion === undefined ? "latest" : "at-rv"))).toEqual([
      "latest",
      "at-rv",
      "latest",
      "at-rv",
      "latest",
    ]);
  });
});

describe("decision helpers", () => {
  const outcome = { error: undefined, initialPending: false, stopped: false };
  it("a watch is healthy when it delivered something and lasted the minimum duration", () => {
    expect(wasHealthy({ ...outcome, events: 1, durationMs: 1000 }, 1000)).toBe(true);
    expect(wasHealthy({ ...outcome, events: 0, durationMs: 60_000 }, 1000)).toBe(false);
    expect(wasHealthy({ ...outcome, events: 5, durationMs: 999 }, 1000)).toBe(false);
  });

  it("a 410 on a list at a resourceVersion lists the latest at once only after a healthy watch", () => {
    const plan = { resourceVersion: "7", limit: undefined };
    const expired = status(410, "Expired");
    expect(decideAfterListFailure(expired, plan, false, false, 500, true)).toEqual({
      next: "list",
      wait: "none",
      plan: { resourceVersion: undefined, limit: 500 },
    });
    expect(decideAfterListFailure(expired, plan, false, false, 500, false)).toMatchObject({
      wait: "backoff",
    });
    // The latest-state list carries no resourceVersion, so its own failures back off: no loop.
    expect(
      decideAfterListFailure(expired, { resourceVersion: undefined, limit: 500 }, false, false, 500, true),
    ).toMatchObject({ wait: "backoff" });
  });
});
