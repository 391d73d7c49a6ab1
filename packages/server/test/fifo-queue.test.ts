import { describe, expect, it } from "vitest";
import { FifoQueue } from "../src/api/fifo-queue.js";

describe("FifoQueue", () => {
  it("takes items oldest first, across its compactions", () => {
    const q = new FifoQueue<number>();
    const taken: number[] = [];
    for (let i = 0; i < 5000; i++) {
      q.push(i);
      if (i % 3 !== 0) taken.push(q.shift() as number);
    }
    while (q.size > 0) taken.push(q.shift() as number);
    expect(taken).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    expect(q.shift()).toBeUndefined();
  });

  it("puts an item back in front, after a compaction too", () => {
    const q = new FifoQueue<number>();
    for (let i = 0; i < 3000; i++) q.push(i);
    for (let i = 0; i < 2000; i++) q.shift();
    q.unshift(1999);
    expect(q.size).toBe(1001);
    expect(q.shift()).toBe(1999);
    expect(q.shift()).toBe(2000);
    q.clear();
    q.unshift(7);
    expect(q.shift()).toBe(7);
    expect(q.size).toBe(0);
  });
});
