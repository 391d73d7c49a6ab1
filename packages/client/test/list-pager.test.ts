import { describe, expect, it } from "vitest";
import { ClientError, type ListPage, ListPager, type ListProgress } from "../src/index.js";

/** A fake collection served in pages, recording each (limit, continue) it was asked for. */
function pagedSource(items: string[], total = items.length) {
  const calls: { limit: number; token: string | undefined }[] = [];
  const fetch = async (limit: number, token: string | undefined): Promise<ListPage<string>> => {
    calls.push({ limit, token });
    const start = token === undefined ? 0 : Number(token);
    const end = Math.min(start + limit, items.length);
    return {
      metadata: {
        resourceVersion: `rv-${calls.length}`,
        ...(end < items.length ? { continue: String(end), remainingItemCount: total - end } : {}),
      },
      items: items.slice(start, end),
    };
  };
  return { calls, fetch };
}

describe("ListPager", () => {
  it("fetches one page per request, following continue tokens, and yields every item in order", async () => {
    const source = pagedSource(["a", "b", "c", "d", "e"]);
    const pager = new ListPager(source.fetch, { pageSize: 2 });
    expect(await pager.collect()).toEqual(["a", "b", "c", "d", "e"]);
    expect(source.calls).toEqual([
      { limit: 2, token: undefined },
      { limit: 2, token: "2" },
      { limit: 2, token: "4" },
    ]);
  });

  it("reports progress after each page, before its items, with the first page's snapshot", async () => {
    const source = pagedSource(["a", "b", "c"]);
    const seen: (ListProgress | string)[] = [];
    const pager = new ListPager(source.fetch, { pageSize: 2, onPage: (p) => seen.push(p) });
    for await (const item of pager) seen.push(item);
    expect(seen).toEqual([
      { pages: 1, items: 2, remainingItemCount: 1, resourceVersion: "rv-1", done: false },
      "a",
      "b",
      { pages: 2, items: 3, remainingItemCount: undefined, resourceVersion: "rv-1", done: true },
      "c",
    ]);
    expect(pager.progress.done).toBe(true);
  });

  it("stops fetching when the consumer stops", async () => {
    const source = pagedSource(["a", "b", "c", "d"]);
    for await (const item of new ListPager(source.fetch, { pageSize: 1 })) if (item === "b") break;
    expect(source.calls).toHaveLength(2);
  });

  it("starts over on each iteration and handles an empty list with one request", async () => {
    const source = pagedSource([]);
    const pager = new ListPager(source.fetch);
    expect(await pager.collect()).toEqual([]);
    expect(await pager.collect()).toEqual([]);
    expect(source.calls).toEqual([
      { limit: 500, token: undefined },
      { limit: 500, token: undefined },
    ]);
  });

  it("rejects a bad page size and a page without items", async () => {
    expect(() => new ListPager(pagedSource([]).fetch, { pageSize: 0 })).toThrow(ClientError);
    const broken = new ListPager<string>(async () => ({ metadata: {} }) as ListPage<string>);
    await expect(broken.collect()).rejects.toMatchObject({ code: "UNEXPECTED_RESPONSE" });
  });

  it("passes a failing page through and keeps the items before it", async () => {
    const got: string[] = [];
    const pager = new ListPager<string>(async (_limit, token) => {
      if (token !== undefined) throw new Error("410 Expired");
      return { metadata: { continue: "next" }, items: ["a"] };
    });
    await expect(
      (async () => {
        for await (const item of pager) got.push(item);
      })(),
    ).rejects.toThrow("410 Expired");
    expect(got).toEqual(["a"]);
  });
});
