import { describe, expect, it } from "vitest";
import type { ListCallOptions, ListerWatcher, ListerWatcherPage, ListQuery } from "../src/list-watcher.js";
import { nextPageLimit, PageRequest } from "../src/page-request.js";

/**
 * A lister whose answers the test releases one by one, reporting `early` as the early token and
 * `bodyBytes` as the size of every answer.
 */
function manualLister(early: (token: string | undefined) => string | undefined, bodyBytes?: number) {
  const calls: {
    query: ListQuery;
    options: ListCallOptions;
    answer: (page: ListerWatcherPage<string>) => void;
  }[] = [];
  const lister = {
    list(query: ListQuery, options: ListCallOptions) {
      return new Promise<ListerWatcherPage<string>>((resolve) => {
        calls.push({
          query,
          options,
          answer: (page) => {
            const token = early(page.continue);
            if (token !== undefined) options.onContinue?.(token, bodyBytes);
            resolve(page);
          },
        });
      });
    },
    watch() {
      throw new Error("not used");
    },
  } as ListerWatcher<string>;
  return { lister, calls };
}

const page = (n: number, more: boolean): ListerWatcherPage<string> => ({
  items: [`item-${n}`],
  resourceVersion: "9",
  ...(more ? { continue: `p${n + 1}` } : {}),
});

describe("PageRequest", () => {
  it("asks for the next page as soon as the token is known, never more than one page ahead", async () => {
    const { lister, calls } = manualLister((t) => t);
    const signal = new AbortController().signal;
    const first = new PageRequest(lister, { limit: 1 }, signal);
    const waiting = first.page();
    calls[0]?.answer(page(0, true));
    // The token came with the answer, before the page was handed over: page 1 is on its way.
    expect(calls.map((c) => c.query)).toEqual([{ limit: 1 }, { continue: "p1", limit: 1 }]);
    const second = first.next(await waiting);
    // Page 1 arrives before anyone waits for it: page 2 waits until it is waited for.
    calls[1]?.answer(page(1, true));
    await Promise.resolve();
    expect(calls).toHaveLength(2);
    const p1 = await second?.page();
    expect(calls).toHaveLength(3);
    expect(p1?.items).toEqual(["item-1"]);
    expect(second?.next(p1 as ListerWatcherPage<string>)).toBeDefined();
  });

  it("drops an early token that is not the page's own, and works with listers that never report one", async () => {
    for (const early of [() => "wrong", () => undefined]) {
      const { lister, calls } = manualLister(early);
      const first = new PageRequest(lister, { limit: 1 }, new AbortController().signal);
      const waiting = first.page();
      calls[0]?.answer(page(0, true));
      const next = first.next(await waiting);
      expect(calls.map((c) => c.query).at(-1)).toEqual({ continue: "p1", limit: 1 });
      calls.at(-1)?.answer(page(1, false));
      const last = await next?.page();
      expect(last?.items).toEqual(["item-1"]);
      expect(next?.next(last as ListerWatcherPage<string>)).toBeUndefined();
    }
  });

  it("sizes each next page from the bytes of the one before", async () => {
    // Every answer is 1,000 bytes and the target 8,000: each page may hold twice the one before.
    const { lister, calls } = manualLister((t) => t, 1000);
    const sizing = (limit: number, bytes: number) => nextPageLimit(limit, bytes, 10, 8000);
    const signal = new AbortController().signal;
    let request: PageRequest<string> | undefined = new PageRequest(lister, { limit: 10 }, signal, sizing);
    for (let n = 0; n < 3; n++) {
      const waiting = request?.page();
      calls[n]?.answer(page(n, n < 2));
      request = request?.next((await waiting) as ListerWatcherPage<string>);
    }
    expect(calls.map((c) => c.query.limit)).toEqual([10, 20, 40]);
  });
});

describe("nextPageLimit", () => {
  it("scales toward the byte target, at most doubling, never below pageSize, and keeps the limit when off", () => {
    // 500 objects in 550 KB, target 4 MiB: room for 3,813, but at most 1,000 next.
    expect(nextPageLimit(500, 550_000, 500, 4 * 1024 * 1024)).toBe(1000);
    expect(nextPageLimit(2000, 2_200_000, 500, 4 * 1024 * 1024)).toBe(3813);
    // Pages far over the target shrink, down to pageSize and no further.
    expect(nextPageLimit(4000, 16_000_000, 500, 4 * 1024 * 1024)).toBe(1048);
    expect(nextPageLimit(600, 50_000_000, 500, 4 * 1024 * 1024)).toBe(500);
    // pageBytes 0, or a size that is not known, keeps the limit.
    expect(nextPageLimit(500, 550_000, 500, 0)).toBe(500);
    expect(nextPageLimit(500, 0, 500, 4 * 1024 * 1024)).toBe(500);
    expect(nextPageLimit(500, Number.NaN, 500, 4 * 1024 * 1024)).toBe(500);
  });
});
