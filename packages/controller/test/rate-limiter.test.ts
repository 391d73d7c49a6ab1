import { describe, expect, it } from "vitest";
import { FakeClock } from "../src/clock.js";
import * as limiters from "../src/rate-limiter.js";

const { defaultRateLimiter, ExponentialBackoffRateLimiter, TokenBucketRateLimiter } = limiters;

describe("rate limiters", () => {
  it("exponential backoff doubles from 5 ms per key, caps at 1000 s, and forget resets it", () => {
    const l = new ExponentialBackoffRateLimiter<string>();
    expect([1, 2, 3, 4].map(() => l.when("a"))).toEqual([5, 10, 20, 40]);
    expect(l.when("b")).toBe(5);
    expect(l.retries("a")).toBe(4);
    for (let i = 0; i < 100; i++) l.when("a");
    expect(l.when("a")).toBe(1_000_000);
    l.forget("a");
    expect(l.retries("a")).toBe(0);
    expect(l.when("a")).toBe(5);
  });

  it("the token bucket allows a burst of 100, then 10 per second, reservations queueing up", () => {
    const clock = new FakeClock();
    const l = new TokenBucketRateLimiter<string>(10, 100, clock);
    const burst = Array.from({ length: 100 }, (_, i) => l.when(`k${i}`));
    expect(burst.every((d) => d === 0)).toBe(true);
    expect(l.when("x")).toBeCloseTo(100);
    expect(l.when("y")).toBeCloseTo(200);
    clock.advance(1000);
    // 10 tokens refilled, 2 of them already reserved.
    const next = Array.from({ length: 8 }, () => l.when("z"));
    expect(next.every((d) => d === 0)).toBe(true);
    expect(l.when("z")).toBeCloseTo(100);
  });

  it("the default limiter takes the longer of both", () => {
    const clock = new FakeClock();
    const l = defaultRateLimiter<string>(clock);
    expect(l.when("a")).toBe(5);
    expect(l.when("a")).toBe(10);
    for (let i = 0; i < 98; i++) l.when(`b${i}`);
    // Bucket exhausted: the 101st reservation waits 100 ms, more than a's 20 ms backoff.
    expect(l.when("a")).toBeCloseTo(100);
    expect(l.retries("a")).toBe(3);
  });
});
