import { describe, expect, it } from "vitest";
import type { ListCallOptions, ListerWatcher, ListerWatcherPage, ListQuery } from "../src/list-watcher.js";
import { PageRequest } from "../src/page-request.js";

/** A lister whose answers the test releases one by one, reporting `early` as the early token. */
function manualLister(early: (token: string | undefined) => string | undefined) {
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
            if (token !== undefined) options.onContinue?.(token);
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
});
