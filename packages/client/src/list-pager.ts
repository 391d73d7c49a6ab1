import type { metaV1 } from "@kubesdk/models";
import { ClientError } from "./errors.js";

/** A page of a list: what the pager needs from any list shape (objects or metadata). */
export interface ListPage<T> {
  readonly metadata?: metaV1.ListMeta;
  readonly items: readonly T[];
}

/** Where a paginated list stands after each page. */
export interface ListProgress {
  /** Pages fetched so far (requests made). */
  readonly pages: number;
  /** Items received so far. */
  readonly items: number;
  /** The server's estimate of items still to come, when it gives one (no selectors). */
  readonly remainingItemCount: number | undefined;
  /** The snapshot all pages come from (the first page's list resourceVersion). */
  readonly resourceVersion: string | undefined;
  /** True after the last page. */
  readonly done: boolean;
}

export interface PagingOptions {
  /** Items per request (default 500, like client-go). */
  readonly pageSize?: number;
  /** Called after every page, before its items are yielded. */
  readonly onPage?: (progress: ListProgress) => void;
}

export const DEFAULT_PAGE_SIZE = 500;

/**
 * Items of a list across pages, fetched lazily one page at a time (`limit` + `continue`). Each
 * iteration starts a new list. A continue token that expired mid-way (410) is thrown as the
 * ApiError: the pages already seen came from a snapshot that can no longer be continued.
 */
export class ListPager<T> implements AsyncIterable<T> {
  readonly #fetchPage: (limit: number, continueToken: string | undefined) => Promise<ListPage<T>>;
  readonly #pageSize: number;
  readonly #onPage: ((progress: ListProgress) => void) | undefined;
  #progress: ListProgress = {
    pages: 0,
    items: 0,
    remainingItemCount: undefined,
    resourceVersion: undefined,
    done: false,
  };

  constructor(
    fetchPage: (limit: number, continueToken: string | undefined) => Promise<ListPage<T>>,
    options: PagingOptions = {},
  ) {
    const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(pageSize) || pageSize < 1) {
      throw new ClientError("INVALID_OPTIONS", `pageSize must be an integer ≥ 1, got ${String(pageSize)}`);
    }
    this.#fetchPage = fetchPage;
    this.#pageSize = pageSize;
    this.#onPage = options.onPage;
  }

  /** Progress of the current (or last) iteration. */
  get progress(): ListProgress {
    return this.#progress;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    let progress: ListProgress = { ...this.#progress, pages: 0, items: 0, done: false };
    let token: string | undefined;
    do {
      const page = await this.#fetchPage(this.#pageSize, token);
      if (!Array.isArray(page?.items)) {
        throw new ClientError("UNEXPECTED_RESPONSE", "a list page without an items array");
      }
      token = page.metadata?.continue || undefined;
      progress = {
        pages: progress.pages + 1,
        items: progress.items + page.items.length,
        remainingItemCount: page.metadata?.remainingItemCount,
        resourceVersion: progress.resourceVersion ?? page.metadata?.resourceVersion,
        done: token === undefined,
      };
      this.#progress = progress;
      this.#onPage?.(progress);
      yield* page.items;
    } while (token !== undefined);
  }

  /** Every item, in order. */
  async collect(): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}
