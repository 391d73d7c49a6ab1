/**
 * The worker pool (api/worker-pool.ts): a job's worker that crashes or overruns its time fails that
 * job alone with the pool's typed error and is replaced for the next job; stopping the pool fails
 * the jobs in flight. Workers here are tiny inline scripts that crash or spin when told to.
 */
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { errors, type StatusError } from "../src/api/status.js";
import { WorkerPool } from "../src/api/worker-pool.js";

// Answers `{ id, ok, result: n * 2 }`; exits on "crash", never answers on "spin".
const SCRIPT = `
const { parentPort } = require("node:worker_threads");
parentPort.on("message", ({ id, what, n }) => {
  if (what === "crash") process.exit(3);
  if (what === "spin") for (;;) {}
  parentPort.postMessage({ id, ok: true, result: n * 2 });
});`;

const pool = (timeoutMs?: number) =>
  new WorkerPool({
    name: "test",
    start: () => new Worker(SCRIPT, { eval: true }),
    failed: (why) => errors.internal(why),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });

const outcome = async (p: Promise<unknown>) => {
  try {
    return { result: await p };
  } catch (e) {
    const s = (e as StatusError).status;
    return { code: s.code, reason: s.reason, message: s.message };
  }
};

describe("worker pool", () => {
  it("answers jobs, several at a time", async () => {
    const p = pool();
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => p.run((id) => ({ id, what: "ok", n }))));
    expect(results).toEqual([2, 4, 6, 8, 10]);
    p.stop();
  });

  it("fails the job of a worker that crashes with a typed error, and runs the next job", async () => {
    const p = pool();
    expect(await outcome(p.run((id) => ({ id, what: "crash" })))).toEqual({
      code: 500,
      reason: "InternalError",
      message: "Internal error occurred: test worker exited with code 3",
    });
    expect(await outcome(p.run((id) => ({ id, what: "ok", n: 21 })))).toEqual({ result: 42 });
    p.stop();
  });

  it("ends a worker that overruns its time, fails its job alone, and runs the next job", async () => {
    const p = pool(300);
    const [hung, fine] = await Promise.all([
      outcome(p.run((id) => ({ id, what: "spin" }))),
      outcome(p.run((id) => ({ id, what: "ok", n: 1 }))),
    ]);
    expect(hung).toEqual({
      code: 500,
      reason: "InternalError",
      message: "Internal error occurred: test worker did not answer within 300 ms",
    });
    expect(fine).toEqual({ result: 2 });
    expect(await outcome(p.run((id) => ({ id, what: "ok", n: 5 })))).toEqual({ result: 10 });
    p.stop();
  });

  it("fails the jobs in flight when stopped, and starts new workers afterwards", async () => {
    const p = pool();
    const pending = outcome(p.run((id) => ({ id, what: "spin" })));
    p.stop();
    expect(await pending).toMatchObject({
      code: 500,
      message: "Internal error occurred: test worker stopped",
    });
    expect(await outcome(p.run((id) => ({ id, what: "ok", n: 4 })))).toEqual({ result: 8 });
    p.stop();
  });
});
