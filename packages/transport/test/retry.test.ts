import { describe, expect, it } from "vitest";
import { Backoff, backoffDelayMs, RequestAbortedError, retry, sleep } from "../src/index.js";
import { rejection } from "./helpers/rejection.js";

describe("sleep", () => {
  it("resolves true after the time, false at once when the signal is (or becomes) aborted", async () => {
    expect(await sleep(1)).toBe(true);
    expect(await sleep(0, new AbortController().signal)).toBe(true);
    expect(await sleep(60_000, AbortSignal.abort())).toBe(false);
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort();
    expect(await waiting).toBe(false);
  });
});

describe("backoff", () => {
  it("doubles from the initial delay to the cap and jitters into [d, d·(1+jitter))", () => {
    const options = { initialMs: 100, maxMs: 1000, factor: 2, jitter: 1 };
    expect([0, 1, 2, 3, 4, 80].map((n) => backoffDelayMs(n, options, () => 0))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
    expect(backoffDelayMs(0, options, () => 0.5)).toBe(150);
  });

  it("a Backoff counts failures without overflowing and starts again after reset()", () => {
    const backoff = new Backoff({ initialMs: 1, maxMs: 4, factor: 10, jitter: 0, resetAfterMs: Infinity });
    const delays = Array.from({ length: 2000 }, () => backoff.next());
    expect(delays.slice(0, 3)).toEqual([1, 4, 4]);
    expect(delays.every(Number.isFinite)).toBe(true);
    backoff.reset();
    expect(backoff.next()).toBe(1);
  });
});

describe("retry", () => {
  const failing = (errors: unknown[]) => {
    const calls: number[] = [];
    const attempt = async () => {
      calls.push(calls.length);
      if (calls.length <= errors.length) throw errors[calls.length - 1];
      return "done";
    };
    return { attempt, calls };
  };

  it("retries what the policy allows, waiting the delay it names for each failure", async () => {
    const { attempt, calls } = failing([new Error("a"), new Error("b")]);
    const delays: [string, number][] = [];
    const result = await retry(attempt, {
      attempts: 3,
      shouldRetry: () => true,
      delayMs: (error, index) => {
        delays.push([(error as Error).message, index]);
        return 1;
      },
    });
    expect(result).toBe("done");
    expect(calls).toHaveLength(3);
    expect(delays).toEqual([
      ["a", 0],
      ["b", 1],
    ]);
  });

  it("stops at the budget or at a failure the policy refuses, rethrowing it", async () => {
    const spent = failing([new Error("1"), new Error("2"), new Error("3")]);
    const policy = { attempts: 2, shouldRetry: () => true, delayMs: () => 0 };
    expect(await rejection(retry(spent.attempt, policy))).toMatchObject({ message: "2" });
    const refused = failing([new Error("final")]);
    const err = await rejection(retry(refused.attempt, { ...policy, attempts: 5, shouldRetry: () => false }));
    expect(err).toMatchObject({ message: "final" });
    expect(refused.calls).toHaveLength(1);
  });

  it("an abort ends the wait with a RequestAbortedError carrying the reason", async () => {
    const controller = new AbortController();
    const { attempt, calls } = failing([new Error("x"), new Error("y")]);
    const pending = retry(attempt, {
      attempts: 5,
      shouldRetry: () => true,
      delayMs: () => {
        queueMicrotask(() => controller.abort("enough"));
        return 60_000;
      },
      signal: controller.signal,
    });
    const err = await rejection(pending);
    expect(err).toBeInstanceOf(RequestAbortedError);
    expect(err).toMatchObject({ code: "ABORTED", cause: "enough" });
    expect(calls).toHaveLength(1);
  });
});
