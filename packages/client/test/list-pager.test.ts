import { ApiError, apiErrorFromStatus, isExpired } from "@kubesdk/transport";
import { describe, expect, it, vi } from "vitest";
import { ClientError, type ListPage, ListPager, type ListProgress } from "../src/index.js";

/** A fake collection served in pages, recording each (limit, continue) it was asked for. */
function pagedSource(items: string[], total = items.length) {
  const calls: { limit: number | undefined; token: string | undefined }[] = [];
  const fetch = async (limit: number | undefined, token: string | undefined): Promise<ListPage<string>> => {
    calls.push({ limit, token });
    const start = token === undefined ? 0 : Number(token);
    const end = Math.min(start + (limit ?? items.length), items.length);
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
      {
        pages: 1,
        items: 2,
        remainingItemCount: 1,
        resourceVersion: "rv-1",
        done: false,
        fullListFallback: false,
      },
      "a",
      "b",
      {
        pages: 2,
        items: 3,
        remainingItemCount: undefined,
        resourceVersion: "rv-1",
        done: true,
        fullListFallback: false,
      },
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

describe("ListPager on an expired continue token", () => {
  const failure = (code: number, reason: string, message: string): ApiError =>
    apiErrorFromStatus({ kind: "Status", apiVersion: "v1", status: "Failure", message, reason, code });
  const expired = () =>
    failure(
      410,
      "Expired",
      "The provided continue parameter is too old to display a consistent list result.",
    );

  /** Pages of two from snapshot rv-1; the second page's token has expired; the full list is rv-2. */
  function expiringSource(full: string[], fullFails = false) {
    const calls: { limit: number | undefined; token: string | undefined }[] = [];
    const fetch = async (limit: number | undefined, token: string | undefined): Promise<ListPage<string>> => {
      calls.push({ limit, token });
      if (token !== undefined) throw expired();
      if (limit === undefined) {
        if (fullFails) throw expired();
        return { metadata: { resourceVersion: "rv-2" }, items: full };
      }
      return { metadata: { resourceVersion: "rv-1", continue: "2" }, items: ["a", "b"] };
    };
    return { calls, fetch };
  }

  it("falls back to one full list without limit and reports it in the progress", async () => {
    const source = expiringSource(["a", "b2", "c", "d"]);
    const seen: (ListProgress | string)[] = [];
    const pager = new ListPager(source.fetch, { pageSize: 2, onPage: (p) => seen.push(p) });
    for await (const item of pager) seen.push(item);
    expect(source.calls).toEqual([
      { limit: 2, token: undefined },
      { limit: 2, token: "2" },
      { limit: undefined, token: undefined },
    ]);
    expect(seen).toEqual([
      expect.objectContaining({ pages: 1, items: 2, resourceVersion: "rv-1", fullListFallback: false }),
      "a",
      "b",
      {
        pages: 2,
        items: 4,
        remainingItemCount: undefined,
        resourceVersion: "rv-2",
        done: true,
        fullListFallback: true,
      },
      "a",
      "b2",
      "c",
      "d",
    ]);
  });

  it("collect() returns only the full list's items", async () => {
    const pager = new ListPager(expiringSource(["a", "b2", "c"]).fetch, { pageSize: 2 });
    expect(await pager.collect()).toEqual(["a", "b2", "c"]);
    expect(pager.progress).toMatchObject({ fullListFallback: true, done: true, items: 3 });
  });

  it("falls back once: a failing full list is thrown, not retried", async () => {
    const source = expiringSource([], true);
    await expect(new ListPager(source.fetch, { pageSize: 2 }).collect()).rejects.toBeInstanceOf(ApiError);
    expect(source.calls).toHaveLength(3);
  });

  it("does not fall back on the first page, on other errors, or when told not to", async () => {
    const first = vi.fn(async () => {
      throw expired();
    });
    await expect(new ListPager<string>(first).collect()).rejects.toSatisfy(isExpired);
    expect(first).toHaveBeenCalledTimes(1);

    const source = expiringSource(["x"]);
    const off = new ListPager(source.fetch, { pageSize: 2, fullListOnExpired: false });
    await expect(off.collect()).rejects.toSatisfy(isExpired);
    expect(source.calls).toHaveLength(2);

    const other = vi.fn(async (_limit: number | undefined, token: string | undefined) => {
      if (token !== undefined) throw failure(500, "InternalError", "boom");
      return { metadata: { continue: "1" }, items: ["a"] };
    });
    await expect(new ListPager<string>(other).collect()).rejects.toMatchObject({ statusCode: 500 });
    expect(other).toHaveBeenCalledTimes(2);
  });
});
