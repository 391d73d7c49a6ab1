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

  it("addAfter with a zero or negative delay adds at once", () => {
    const q = queue();
    q.addAfter("a", 0);
    q.addAfter("b", -5);
    expect(q.delayed).toBe(0);
    expect([q.tryGet(), q.tryGet()]).toEqual(["a", "b"]);
  });

  it("addAfter with NaN or Infinity throws a typed error", () => {
    const q = queue();
    expect(() => q.addAfter("a", Number.NaN)).toThrow(expect.objectContaining({ code: "INVALID_OPTION" }));
    expect(() => q.addAfter("a", Number.POSITIVE_INFINITY)).toThrow(
      expect.objectContaining({ code: "INVALID_OPTION" }),
    );
  });

  it("keys due at the same instant come out in client-go's heap order", () => {
    const clock = new FakeClock();
    const q = queue(clock);
    for (const k of ["a", "b", "c"]) q.addAfter(k, 10);
    clock.advance(10);
    // A binary heap of three tied entries pops the first, then the last, then the middle one.
    expect([q.tryGet(), q.tryGet(), q.tryGet()]).toEqual(["a", "c", "b"]);
  });

  it("one timer serves all delayed keys", () => {
    const clock = new FakeClock();
    const q = queue(clock);
    for (let i = 0; i < 100; i++) q.addAfter(`k${i}`, 10 + i);
    expect(clock.pending).toBe(1);
    clock.advance(1000);
    expect(q.length).toBe(100);
    expect(clock.pending).toBe(0);
  });

  describe("shutdown", () => {
    it("shutDown releases waiting getters with undefined", async () => {
      const q = queue();
      const waiting = [q.get(), q.get()];
      q.shutDown();
      expect(await Promise.all(waiting)).toEqual([undefined, undefined]);
    });

    it("after shutDown, keys already queued are still handed out, then get() resolves undefined", async () => {
      const q = queue();
      q.add("a");
      q.add("b");
      q.shutDown();
      expect(q.length).toBe(2);
      expect(await q.get()).toBe("a");
      expect(q.tryGet()).toBe("b");
      expect(await q.get()).toBeUndefined();
      expect(q.tryGet()).toBeUndefined();
    });

    it("after shutDown, add, addAfter and addRateLimited are ignored", () => {
      const clock = new FakeClock();
      const q = queue(clock);
      q.shutDown();
      q.add("a");
      q.addAfter("b", 0);
      q.addAfter("c", 5);
      q.addRateLimited("d");
      clock.advance(1000);
      expect(q.length + q.delayed).toBe(0);
      // The limiter still counts the retry, as client-go's does.
      expect(q.retries("d")).toBe(1);
    });

    it("shutDown drops keys waiting for a delay", () => {
      const clock = new FakeClock();
      const q = queue(clock);
      q.addAfter("a", 10);
      q.shutDown();
      expect(q.delayed).toBe(0);
      expect(clock.pending).toBe(0);
      clock.advance(10);
      expect(q.tryGet()).toBeUndefined();
    });

    it("a key re-added while processed before shutDown is handed out again after done", () => {
      const q = queue();
      q.add("a");
      expect(q.tryGet()).toBe("a");
      q.add("a");
      q.shutDown();
      expect(q.tryGet()).toBeUndefined();
      q.done("a");
      expect(q.tryGet()).toBe("a");
      q.done("a");
      expect(q.tryGet()).toBeUndefined();
    });

    it("shutDownWithDrain resolves once no key is processed, though keys are still queued", async () => {
      const q = queue();
      q.add("x");
      q.add("y");
      expect(q.tryGet()).toBe("x");
      let drained = false;
      const drain = q.shutDownWithDrain().then(() => {
        drained = true;
      });
      await Promise.resolve();
      expect(drained).toBe(false);
      q.done("x");
      await drain;
      expect(drained).toBe(true);
      expect(q.tryGet()).toBe("y");
    });

    it("shutDownWithDrain resolves at once when nothing is processed", async () => {
      const q = queue();
      q.add("x");
      await q.shutDownWithDrain();
      expect(q.length).toBe(1);
    });

    it("shutDownWithDrain keeps waiting while a key re-added during processing is processed again", async () => {
      const q = queue();
      q.add("a");
      q.add("b");
      expect(q.tryGet()).toBe("a");
      expect(q.tryGet()).toBe("b");
      q.add("a");
      let drained = false;
      const drain = q.shutDownWithDrain().then(() => {
        drained = true;
      });
      q.done("a");
      expect(q.tryGet()).toBe("a");
      q.done("b");
      await Promise.resolve();
      expect(drained).toBe(false);
      q.done("a");
      await drain;
      expect(drained).toBe(true);
    });

    it("shutDown releases a pending shutDownWithDrain", async () => {
      const q = queue();
      q.add("x");
      q.tryGet();
      const drain = q.shutDownWithDrain();
      q.shutDown();
      await drain;
      expect(q.processing).toBe(1);
    });

    it("shutDownWithDrain after shutDown waits for processing keys", async () => {
      const q = queue();
      q.add("x");
      q.tryGet();
      q.shutDown();
      let drained = false;
      const drain = q.shutDownWithDrain().then(() => {
        drained = true;
      });
      await Promise.resolve();
      expect(drained).toBe(false);
      q.done("x");
      await drain;
    });

    it("every pending shutDownWithDrain resolves when the last key is done (client-go wakes one)", async () => {
      const q = queue();
      q.add("x");
      q.tryGet();
      const drains = [q.shutDownWithDrain(), q.shutDownWithDrain()];
      q.done("x");
      await Promise.all(drains);
    });

    it("a second shutDown releases a drain started after the first (client-go ignores it)", async () => {
      const q = queue();
      q.add("x");
      q.tryGet();
      q.shutDown();
      const drain = q.shutDownWithDrain();
      q.shutDown();
      await drain;
      expect(q.processing).toBe(1);
    });

    it("the getter waiting longest receives the next key", async () => {
      const q = queue();
      const first = q.get();
      const second = q.get();
      q.add("a");
      q.add("b");
      expect([await first, await second]).toEqual(["a", "b"]);
    });

    it("done for a key not being processed is ignored (client-go would queue it twice)", () => {
      const q = queue();
      q.add("a");
      q.done("a");
      expect(q.length).toBe(1);
      expect(q.tryGet()).toBe("a");
      expect(q.tryGet()).toBeUndefined();
    });
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
