import { describe, expect, it } from "vitest";
import { Backoff, DEFAULT_BACKOFF } from "../src/backoff.js";

describe("Backoff", () => {
  it("S35: starts at 800 ms, doubles to a 30 s cap, jitters into [d, 2d) and resets after 2 minutes without trouble", () => {
    let now = 0;
    let draw = 0;
    const backoff = new Backoff(
      DEFAULT_BACKOFF,
      () => draw,
      () => now,
    );
    const bases = Array.from({ length: 8 }, () => {
      now += 1000;
      return backoff.next();
    });
    expect(bases).toEqual([800, 1600, 3200, 6400, 12_800, 25_600, 30_000, 30_000]);

    draw = 0.999;
    now += 1000;
    const jittered = backoff.next();
    expect(jittered).toBeGreaterThanOrEqual(30_000);
    expect(jittered).toBeLessThan(60_000);

    // Quiet for a little less than the reset period: still capped.
    draw = 0;
    now += 119_999;
    expect(backoff.next()).toBe(30_000);
    // Quiet for the reset period: back to the start.
    now += 120_000;
    expect(backoff.next()).toBe(800);
    expect(backoff.next()).toBe(1600);
  });

  it("honours its options and reset()", () => {
    const backoff = new Backoff(
      { initialMs: 10, maxMs: 25, factor: 3, jitter: 0.5, resetAfterMs: 1000 },
      () => 0.5,
      () => 0,
    );
    expect([backoff.next(), backoff.next(), backoff.next()]).toEqual([12.5, 31.25, 31.25]);
    backoff.reset();
    expect(backoff.next()).toBe(12.5);
  });
});
