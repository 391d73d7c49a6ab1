/**
 * Property tests of the work queue over random sequences of add / addAfter / addRateLimited /
 * get / done / forget and fake-time steps, checked against a model of which keys need processing.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FakeClock } from "../src/clock.js";
import { defaultRateLimiter } from "../src/rate-limiter.js";
import { WorkQueue } from "../src/work-queue.js";

const KEYS = ["a", "b", "c", "d", "e"] as const;
const WORKERS = 3;

type Op =
  | { op: "add"; key: string }
  | { op: "addAfter"; key: string; ms: number }
  | { op: "addRateLimited"; key: string }
  | { op: "forget"; key: string }
  | { op: "get"; worker: number }
  | { op: "done"; worker: number }
  | { op: "advance"; ms: number };

const key = fc.constantFrom(...KEYS);
const worker = fc.integer({ min: 0, max: WORKERS - 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant("add" as const), key }),
  fc.record({ op: fc.constant("addAfter" as const), key, ms: fc.integer({ min: 0, max: 50 }) }),
  fc.record({ op: fc.constant("addRateLimited" as const), key }),
  fc.record({ op: fc.constant("forget" as const), key }),
  fc.record({ op: fc.constant("get" as const), worker }),
  fc.record({ op: fc.constant("get" as const), worker }),
  fc.record({ op: fc.constant("done" as const), worker }),
  fc.record({ op: fc.constant("advance" as const), ms: fc.integer({ min: 0, max: 60 }) }),
);

/** What the queue must do: keys needing processing, delays due, what each worker holds. */
class Model {
  readonly needed = new Set<string>();
  readonly due = new Map<string, number>();
  readonly held: (string | undefined)[] = Array(WORKERS).fill(undefined);
  readonly limiter;

  constructor(readonly clock: FakeClock) {
    this.limiter = defaultRateLimiter<string>(clock);
  }

  delay(k: string, ms: number): void {
    if (ms === 0) {
      this.needed.add(k);
      return;
    }
    const at = this.clock.now() + ms;
    const prev = this.due.get(k);
    if (prev === undefined || at < prev) this.due.set(k, at);
  }

  timePassed(): void {
    for (const [k, at] of this.due)
      if (at <= this.clock.now()) {
        this.due.delete(k);
        this.needed.add(k);
      }
  }
}

function run(ops: Op[]): void {
  const clock = new FakeClock();
  const queue = new WorkQueue<string>({ clock, rateLimiter: defaultRateLimiter(clock) });
  const model = new Model(clock);
  const handOut = (w: number): void => {
    const k = queue.tryGet();
    if (k === undefined) {
      // Liveness: nothing ready means every key that needs work is held by a worker.
      for (const n of model.needed) expect(model.held).toContain(n);
      return;
    }
    expect(model.held, `key ${k} handed to two workers`).not.toContain(k);
    expect(model.needed.has(k), `key ${k} handed out without being added since`).toBe(true);
    model.needed.delete(k);
    model.held[w] = k;
  };
  for (const o of ops) {
    switch (o.op) {
      case "add":
        queue.add(o.key);
        model.needed.add(o.key);
        break;
      case "addAfter":
        queue.addAfter(o.key, o.ms);
        model.delay(o.key, o.ms);
        break;
      case "addRateLimited":
        queue.addRateLimited(o.key);
        model.delay(o.key, model.limiter.when(o.key));
        break;
      case "forget":
        queue.forget(o.key);
        model.limiter.forget(o.key);
        break;
      case "get":
        if (model.held[o.worker] === undefined) handOut(o.worker);
        break;
      case "done": {
        const k = model.held[o.worker];
        if (k !== undefined) queue.done(k);
        model.held[o.worker] = undefined;
        break;
      }
      case "advance":
        clock.advance(o.ms);
        model.timePassed();
        break;
    }
    expect(queue.retries("a")).toBe(model.limiter.retries("a"));
  }
  // No key lost: finish the held keys, let every delay pass, drain; every needed key comes out.
  for (let w = 0; w < WORKERS; w++) {
    const k = model.held[w];
    if (k !== undefined) queue.done(k);
    model.held[w] = undefined;
  }
  clock.advance(2_000_000_000);
  model.timePassed();
  for (let k = queue.tryGet(); k !== undefined; k = queue.tryGet()) {
    expect(model.needed.has(k)).toBe(true);
    model.needed.delete(k);
    queue.done(k);
  }
  expect([...model.needed]).toEqual([]);
  expect(queue.length + queue.processing + queue.delayed).toBe(0);
}

describe("WorkQueue properties", () => {
  it("never hands a key to two workers, never loses a key, never hands out a waiting key twice", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => run(ops)),
      { numRuns: 500 },
    );
  });

  it("a key added many times while waiting is handed out once", () => {
    fc.assert(
      fc.property(fc.array(key, { minLength: 1, maxLength: 100 }), (adds) => {
        const queue = new WorkQueue<string>({ clock: new FakeClock() });
        for (const k of adds) queue.add(k);
        const out: string[] = [];
        for (let k = queue.tryGet(); k !== undefined; k = queue.tryGet()) out.push(k);
        expect(out).toEqual([...new Set(adds)]);
      }),
    );
  });
});
