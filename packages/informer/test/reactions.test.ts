import {
  apiErrorFromStatus,
  ConnectionError,
  MalformedEventError,
  TimeoutError,
  TruncatedStreamError,
} from "@kubesdk/transport";
import { describe, expect, it } from "vitest";
import { decideAfterListFailure, decideAfterWatch, planFor, type WatchOutcome } from "../src/reactions.js";

const status = (code: number, reason: string, extra: Record<string, unknown> = {}) =>
  apiErrorFromStatus(
    { kind: "Status", apiVersion: "v1", status: "Failure", message: reason, reason, code, ...extra },
    { httpCode: code },
  );
const healthy: WatchOutcome = {
  error: undefined,
  events: 2,
  durationMs: 10,
  initialPending: false,
  stopped: false,
};
const decide = (o: Partial<WatchOutcome>) => decideAfterWatch({ ...healthy, ...o }, 1000);

// The reactions, named once so that each case below reads as one line.
const watchAgain = { next: "watch", wait: "none" } as const;
const watchAfterBackoff = { next: "watch", wait: "backoff" } as const;
const relistAfterBackoff = { next: "list", wait: "backoff", from: "last" } as const;
const relistNow = { next: "list", wait: "none", from: "last" } as const;
const refused = new ConnectionError("CONNECTION_REFUSED", "refused", false);
const reset = new ConnectionError("CONNECTION_RESET", "reset", true);
const throttled = status(429, "TooManyRequests", { details: { retryAfterSeconds: 2 } });
const torn = new TruncatedStreamError(10);
const malformed = new MalformedEventError("invalid JSON", "{");
const lost = "connection-lost";
const afterRetryAfter = { ...watchAfterBackoff, retryAfterMs: 2000 };

describe("after a watch", () => {
  // name, how the watch ended, the reason, the reaction, whether it is reported as a failure
  it.each([
    ["a clean end after events", {}, "closed", watchAgain, false],
    ["a clean end after a long quiet", { events: 0, durationMs: 1000 }, "closed", watchAgain, false],
    ["a short empty stream", { events: 0, durationMs: 999 }, "short", relistAfterBackoff, false],
    ["ERROR 410", { error: status(410, "Expired") }, "expired", relistNow, false],
    ["429 with Retry-After", { error: throttled }, "throttled", afterRetryAfter, true],
    ["connection refused", { error: refused }, "refused", watchAfterBackoff, true],
    ["an idle stream", { error: new TimeoutError("IDLE_TIMEOUT", 100) }, "idle", watchAgain, true],
    ["a torn frame after events", { error: torn }, lost, watchAgain, true],
    ["a reset before any event", { error: reset, events: 0, durationMs: 5 }, lost, relistAfterBackoff, true],
    ["a malformed event", { error: malformed }, "malformed", relistAfterBackoff, true],
    ["a 500", { error: status(500, "InternalError") }, "failed", relistAfterBackoff, true],
    ["a stop", { stopped: true }, "stopped", { next: "stop" }, false],
  ] as const)("%s", (_name, outcome, reason, reaction, report) => {
    const d = decide(outcome as Partial<WatchOutcome>);
    expect(d.reason).toBe(reason);
    expect(d.reaction).toEqual(reaction);
    expect(d.report).toBe(report);
  });

  it("a streaming list not yet complete starts over, falls back on 422, and lists the latest state after 410", () => {
    const pending = { initialPending: true, events: 3 };
    expect(decide({ ...pending, error: status(422, "Invalid") }).reaction).toEqual({
      next: "fallback-to-list",
    });
    expect(decide({ ...pending }).reaction).toEqual({ next: "list", wait: "backoff", from: "last" });
    expect(decide({ ...pending, error: status(410, "Expired") }).reaction).toEqual({
      next: "list",
      wait: "none",
      from: "latest",
    });
  });
});

describe("after a failed list page", () => {
  const atRv = planFor("42", 500);
  const latest = planFor(undefined, 500);

  it("lists at a resourceVersion are unpaged; lists of the latest state are paged", () => {
    expect(atRv).toEqual({ resourceVersion: "42", limit: undefined });
    expect(latest).toEqual({ resourceVersion: undefined, limit: 500 });
  });

  it("S5: 410 on a continue page: one full list without limit, at once", () => {
    expect(decideAfterListFailure(status(410, "Expired"), latest, true, false, 500)).toEqual({
      next: "list",
      wait: "none",
      plan: { resourceVersion: undefined, limit: undefined },
    });
  });

  it("S15: 410 on a list at a resourceVersion: the latest state next, after a backoff", () => {
    expect(decideAfterListFailure(status(410, "Expired"), atRv, false, false, 500)).toEqual({
      next: "list",
      wait: "backoff",
      plan: latest,
    });
  });

  it("S35: other failures retry the same list after a backoff, honouring Retry-After", () => {
    expect(decideAfterListFailure(status(500, "InternalError"), atRv, false, false, 500)).toEqual({
      next: "list",
      wait: "backoff",
      plan: atRv,
    });
    expect(decideAfterListFailure(status(403, "Forbidden"), latest, false, false, 500)).toEqual({
      next: "list",
      wait: "backoff",
      plan: latest,
    });
    expect(
      decideAfterListFailure(
        status(429, "TooManyRequests", { details: { retryAfterSeconds: 3 } }),
        latest,
        false,
        false,
        500,
      ),
    ).toEqual({ next: "list", wait: "backoff", plan: latest, retryAfterMs: 3000 });
    expect(decideAfterListFailure(status(500, "InternalError"), atRv, false, true, 500)).toEqual({
      next: "stop",
    });
  });
});
