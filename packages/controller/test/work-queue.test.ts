import { describe, expect, it } from "vitest";
import { FakeClock } from "../src/clock.js";
import { ExponentialBackoffRateLimiter } from "../src/rate-limiter.js";
import { WorkQueue } from "../src/work-queue.js";

function queue(clock = new FakeClock()) {
  return new WorkQueue<string>({ clock, rateLimiter: new ExponentialBackoffRateLimiter() });
}

describe("WorkQueue", () => {
  it("get() waits for an add and hands keys out in order", async () => {
    const q = queue();
    const first = q.get();
    q.add("a");
    q.add("b");
    expect(await first).toBe("a");
    expect(await q.get()).toBe("b");
  });

  it("a key added while processed is handed out again only after done", () => {
    const q = queue();
    q.add("a");
    expect(q.tryGet()).toBe("a");
    q.add("a");
    q.add("a");
    expect(q.tryGet()).toBeUndefined();
    q.done("a");
    expect(q.tryGet()).toBe("a");
    q.done("a");
    expect(q.tryGet()).toBeUndefined();
  });

  it("addAfter waits on the clock, and several delays of one key collapse to the earliest", () => {
    const clock = new FakeClock();
    const q = queue(clock);
    q.addAfter("a", 100);
    q.addAfter("a", 50);
    q.addAfter("a", 500);
    expect(q.delayed).toBe(1);
    clock.advance(49);
    expect(q.tryGet()).toBeUndefined();
    clock.advance(1);
    expect(q.tryGet()).toBe("a");
    q.done("a");
    clock.advance(1000);
    expect(q.tryGet()).toBeUndefined();
  });

  it("addRateLimited backs off per key until forget", () => {
    const clock = new FakeClock();
    const q = queue(clock);
    q.addRateLimited("a");
    q.addRateLimited("a");
    expect(q.retries("a")).toBe(2);
    clock.advance(5);
    expect(q.tryGet()).toBe("a");
    q.done("a");
    q.forget("a");
    expect(q.retries("a")).toBe(0);
  });

  it("shutDown releases waiting getters and ignores adds; shutDownWithDrain waits for done", async () => {
    const q = queue();
    const waiting = q.get();
    q.shutDown();
    expect(await waiting).toBeUndefined();
    q.add("a");
    expect(q.length).toBe(0);

    const q2 = queue();
    q2.add("x");
    expect(q2.tryGet()).toBe("x");
    let drained = false;
    const drain = q2.shutDownWithDrain().then(() => {
      drained = true;
    });
    await Promise.resolve();
    expect(drained).toBe(false);
    q2.done("x");
    await drain;
    expect(drained).toBe(true);
  });

  it("reports adds, depth, latency, work duration and retries to its metrics", () => {
    const clock = new FakeClock();
    const seen = {
      added: 0,
      depth: [] as number[],
      waited: [] as number[],
      worked: [] as number[],
      retried: 0,
    };
    const q = new WorkQueue<string>({
      clock,
      metrics: {
        added: () => seen.added++,
        depth: (n) => seen.depth.push(n),
        handedOut: (_k, ms) => seen.waited.push(ms),
        finished: (_k, ms) => seen.worked.push(ms),
        retried: () => seen.retried++,
      },
    });
    q.add("a");
    q.add("a");
    clock.advance(7);
    q.tryGet();
    clock.advance(3);
    q.done("a");
    q.addRateLimited("b");
    expect(seen).toMatchObject({ added: 2, waited: [7], worked: [3], retried: 1 });
    expect(seen.depth).toEqual([1, 0]);
  });
});
