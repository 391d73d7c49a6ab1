/**
 * The operation sequences of the work queue differential test: generated from a seed, and run on
 * @kubesdk/controller's WorkQueue with the same observation rules as main.go runs client-go's.
 */
import { ExponentialBackoffRateLimiter, FakeClock, WorkQueue } from "@kubesdk/controller";
import { prng } from "../../test/support/prng.js";

export type Op =
  | { op: "begin" | "end" | "get" | "getWait" | "shutDown" | "shutDownWithDrain" }
  | { op: "add" | "addRateLimited" | "forget" | "numRequeues"; key: string }
  | { op: "addAfter"; key: string; ms: number }
  | { op: "done"; slot: number }
  | { op: "step"; ms: number };

/** What one operation let us observe; main.go prints the same shape. */
export interface Observed {
  r: string | number | null;
  g: string[];
  d: number;
  len: number;
  sd: boolean;
}

const KEYS = ["a", "b", "c", "d", "e"];
const MAX_WAITERS = 3;

/** One sequence: begin, 20–150 random operations, end. Shutdowns are rare, so most run a while. */
export function generate(seed: number): Op[] {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const key = () => pick(KEYS);
  const delay = () => pick([-3, 0, 1, 2, 5, 5, 10, 20, 30, 1000]);
  const step = () => pick([1, 2, 3, 5, 5, 10, 20, 40, 10_000]);
  const table: [number, () => Op][] = [
    [20, () => ({ op: "add", key: key() })],
    [14, () => ({ op: "addAfter", key: key(), ms: delay() })],
    [10, () => ({ op: "addRateLimited", key: key() })],
    [4, () => ({ op: "forget", key: key() })],
    [3, () => ({ op: "numRequeues", key: key() })],
    [15, () => ({ op: "get" })],
    [6, () => ({ op: "getWait" })],
    [16, () => ({ op: "done", slot: Math.floor(rand() * 4) })],
    [10, () => ({ op: "step", ms: step() })],
    [1, () => ({ op: "shutDown" })],
    [1, () => ({ op: "shutDownWithDrain" })],
  ];
  const total = table.reduce((sum, [w]) => sum + w, 0);
  const ops: Op[] = [{ op: "begin" }];
  const length = 20 + Math.floor(rand() * 131);
  for (let i = 0; i < length; i++) {
    let x = rand() * total;
    for (const [w, make] of table) {
      x -= w;
      if (x < 0) {
        ops.push(make());
        break;
      }
    }
  }
  ops.push({ op: "end" });
  return ops;
}

/** Runs one sequence on WorkQueue; one Observed per operation, as main.go reports them. */
export async function runOurs(ops: readonly Op[]): Promise<Observed[]> {
  const clock = new FakeClock();
  const q = new WorkQueue<string>({ clock, rateLimiter: new ExponentialBackoffRateLimiter(5, 1_000_000) });
  let held: string[] = [];
  let getters = 0;
  let drains = 0;
  let shutDownCalled = false;
  let gotGetter: string[] = [];
  let gotDrain = 0;
  const apply = (o: Op): string | number | null => {
    switch (o.op) {
      case "begin":
        return null;
      case "end":
        for (const k of held) q.done(k);
        held = [];
        q.shutDown();
        return null;
      case "add":
        q.add(o.key);
        return null;
      case "addAfter":
        q.addAfter(o.key, o.ms);
        return null;
      case "addRateLimited":
        q.addRateLimited(o.key);
        return null;
      case "forget":
        q.forget(o.key);
        return null;
      case "numRequeues":
        return q.retries(o.key);
      case "get": {
        const k = q.tryGet();
        if (k === undefined) return q.shuttingDown ? "!shutdown" : "!empty";
        held.push(k);
        return k;
      }
      case "getWait":
        if (getters >= MAX_WAITERS) return "!skipped";
        getters++;
        void q.get().then((k) => gotGetter.push(k ?? "!shutdown"));
        return null;
      case "done": {
        if (held.length === 0) return "!skipped";
        const i = o.slot % held.length;
        const [k] = held.splice(i, 1) as [string];
        q.done(k);
        return k;
      }
      case "shutDown":
        // See main.go: client-go ignores a second ShutDown, so it would not release this drain.
        if (shutDownCalled && drains > 0) return "!skipped";
        shutDownCalled = true;
        q.shutDown();
        return null;
      case "shutDownWithDrain":
        if (drains > 0) return "!skipped";
        drains++;
        void q.shutDownWithDrain().then(() => gotDrain++);
        return null;
      case "step":
        clock.advance(o.ms);
        return null;
    }
  };
  const out: Observed[] = [];
  for (const o of ops) {
    let r: string | number | null;
    try {
      r = apply(o);
    } catch (err) {
      r = `!threw ${String(err)}`;
    }
    // Lets every promise the operation settled run its callbacks: our counterpart of settle().
    await new Promise((resolve) => setImmediate(resolve));
    const g = gotGetter.sort();
    gotGetter = [];
    for (const k of g) if (k !== "!shutdown") held.push(k);
    getters -= g.length;
    const d = gotDrain;
    gotDrain = 0;
    drains -= d;
    out.push({ r, g, d, len: q.length, sd: q.shuttingDown });
  }
  return out;
}
