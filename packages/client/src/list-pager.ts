import type { metaV1 } from "@kubesdk/models";
import { isExpired } from "@kubesdk/transport";
import { ClientError } from "./errors.js";

/** A page of a list: what the pager needs from any list shape (objects or metadata). */
export interface ListPage<T> {
  readonly metadata?: metaV1.ListMeta;
  readonly items: readonly T[];
}

/** Where a paginated list stands after each page. */
export interface ListProgress {
  /** Pages fetched so far (requests made, the fallback list included). */
  readonly pages: number;
  /** Items received so far; after a fallback, the items of the full list. */
  readonly items: number;
  /** The server's estimate of items still to come, when it gives one (no selectors). */
  readonly remainingItemCount: number | undefined;
  /** The snapshot the items come from: the first page's list resourceVersion, or the full list's after a fallback. */
  readonly resourceVersion: string | undefined;
  /** True after the last page. */
  readonly done: boolean;
  /**
   * True when a continue token expired (410) and the pager fell back to one full list without
   * limit. Items yielded before came from the expired snapshot; the full list is complete by itself.
   */
  readonly fullListFallback: boolean;
}

export interface PagingOptions {
  /** Items per request (default 500, like client-go). */
  readonly pageSize?: number;
  /** Called after every page, before its items are yielded. */
  readonly onPage?: (progress: ListProgress) => void;
  /**
   * When a continue token has expired (410 Expired on the second page or later), list everything
   * in one request without limit instead of failing (default true, like client-go's pager).
   */
  readonly fullListOnExpired?: boolean;
}

/**
 * Fetches one page: `limit` items from `continueToken` on. `limit` undefined (and no token) asks
 * for the fallback full list, with the list's original resourceVersion options.
 */
export type FetchPage<T> = (
  limit: number | undefined,
  continueToken: string | undefined,
) => Promise<ListPage<T>>;

export const DEFAULT_PAGE_SIZE = 500;

const START: ListProgress = {
  pages: 0,
  items: 0,
  remainingItemCount: undefined,
  resourceVersion: undefined,
  done: false,
  fullListFallback: false,
};

/**
 * Items of a list across pages, fetched lazily one page at a time (`limit` + `continue`). Each
 * iteration starts a new list. A continue token that expired mid-way (410) is answered like
 * client-go does: one full list without limit, reported through `fullListFallback`; iteration
 * then yields that list's items (so items seen before may come again), and {@link collect}
 * returns only them. The fallback happens at most once: if it fails too, its error is thrown.
 */
export class ListPager<T> implements AsyncIterable<T> {
  readonly #fetchPage: FetchPage<T>;
  readonly #pageSize: number;
  readonly #onPage: ((progress: ListProgress) => void) | undefined;
  readonly #fullListOnExpired: boolean;
  #progress: ListProgress = START;

  constructor(fetchPage: FetchPage<T>, options: PagingOptions = {}) {
    const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(pageSize) || pageSize < 1) {
      throw new ClientError("INVALID_OPTION", `pageSize must be an integer ≥ 1, got ${String(pageSize)}`);
    }
    this.#fetchPage = fetchPage;
    this.#pageSize = pageSize;
    this.#onPage = options.onPage;
    this.#fullListOnExpired = options.fullListOnExpired ?? true;
  }

  /** Progress of the current (or last) iteration. */
  get progress(): ListProgress {
    return this.#progress;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.#pages()) yield* page.items;
  }

  /** Every item, in order; after a fallback, the items of the full list only. */
  async collect(): Promise<T[]> {
    let items: T[] = [];
    for await (const page of this.#pages()) {
      if (page.fallback) items = [];
      items.push(...page.items);
    }
    return items;
  }

  async *#pages(): AsyncGenerator<{ items: readonly T[]; fallback: boolean }, void, undefined> {
    let progress: ListProgress = START;
    let token: string | undefined;
    do {
      let page: ListPage<T>;
      let fallback = false;
      try {
        page = checked(await this.#fetchPage(this.#pageSize, token));
      } catch (err) {
        if (token === undefined || !this.#fullListOnExpired || !isExpired(err)) throw err;
        // The snapshot of the earlier pages is gone; one consistent list replaces them all.
        page = checked(await this.#fetchPage(undefined, undefined));
        fallback = true;
      }
      token = fallback ? undefined : page.metadata?.continue || undefined;
      progress = {
        pages: progress.pages + 1,
        items: (fallback ? 0 : progress.items) + page.items.length,
        remainingItemCount: fallback ? undefined : page.metadata?.remainingItemCount,
        resourceVersion: (fallback ? undefined : progress.resourceVersion) ?? page.metadata?.resourceVersion,
        done: token === undefined,
        fullListFallback: fallback,
      };
      this.#progress = progress;
      this.#onPage?.(progress);
      yield { items: page.items, fallback };
    } while (token !== undefined);
  }
}

function checked<T>(page: ListPage<T>): ListPage<T> {
  if (!Array.isArray(page?.items)) {
    throw new ClientError("UNEXPECTED_RESPONSE", "a list page without an items array");
  }
  return page;
}
