/**
 * Requests of a paged list that keep one page ahead: the page after the one being waited for is
 * asked for as soon as its continue token is known — from the first bytes of the answer when the
 * lister reports it early (see ListerWatcher.list's `onContinue`), so it travels while this page is
 * decoded; otherwise once this page has arrived. Never more than one request beyond the page being
 * waited for is in flight. Each page's size in bytes sizes the next one (see {@link nextPageLimit}).
 */
import type { ListerWatcher, ListerWatcherPage, ListQuery } from "./list-watcher.js";

/** The limit of the page after one of `limit` objects whose answer had `bodyBytes` bytes. */
export type PageSizing = (limit: number, bodyBytes: number) => number;

/**
 * Sizes the next page for about `pageBytes` bytes: the objects of this page, scaled by how far its
 * body was from the target, at most doubled (one page of small objects says little about the rest)
 * and never below `pageSize`. kube-apiserver spends CPU per page (about 5 ms per `continue` page of
 * 500 ConfigMaps among 50,000, docs/performance.md), so a few large pages cost it far less than many
 * small ones, while a page stays a bounded amount of memory. `pageBytes` 0 keeps the limit.
 */
export function nextPageLimit(limit: number, bodyBytes: number, pageSize: number, pageBytes: number): number {
  if (pageBytes <= 0 || !(bodyBytes > 0)) return limit;
  const fitting = Math.floor((limit * pageBytes) / bodyBytes);
  return Math.max(pageSize, Math.min(2 * limit, fitting));
}

const keepSize: PageSizing = (limit) => limit;

export class PageRequest<T> {
  readonly #lister: ListerWatcher<T>;
  readonly #limit: number | undefined;
  readonly #signal: AbortSignal;
  readonly #sizing: PageSizing;
  readonly #page: Promise<ListerWatcherPage<T>>;
  /** The continue token this page reported early. */
  #token: string | undefined;
  /** The next page's limit, once this page's size is known. */
  #nextLimit: number | undefined;
  #next: PageRequest<T> | undefined;
  #waitedFor = false;

  constructor(
    lister: ListerWatcher<T>,
    query: ListQuery,
    signal: AbortSignal,
    sizing: PageSizing = keepSize,
  ) {
    this.#lister = lister;
    this.#limit = query.limit;
    this.#signal = signal;
    this.#sizing = sizing;
    this.#page = lister.list(query, {
      signal,
      onContinue: (token, bodyBytes) => {
        if (this.#token === undefined && this.#limit !== undefined && bodyBytes !== undefined)
          this.#nextLimit = sizing(this.#limit, bodyBytes);
        this.#token ??= token;
        if (this.#waitedFor) this.#startNext(this.#token);
      },
    });
    // A request left behind (the reflector stopped or gave up on the list) must not reject unhandled.
    this.#page.catch(() => {});
  }

  /** The page; the request for the next one starts as soon as its token is known. */
  page(): Promise<ListerWatcherPage<T>> {
    this.#waitedFor = true;
    if (this.#token !== undefined) this.#startNext(this.#token);
    return this.#page;
  }

  /** The request for the page after `page` (this request's answer); starts it if it was not yet. */
  next(page: ListerWatcherPage<T>): PageRequest<T> | undefined {
    const token = page.continue;
    if (token === undefined) return undefined;
    // An early token that is not the page's own (a body with two metadata members) is dropped.
    if (this.#next !== undefined && this.#token === token) return this.#next;
    return this.#request(token);
  }

  #startNext(token: string): void {
    this.#next ??= this.#request(token);
  }

  #request(token: string): PageRequest<T> {
    const limit = this.#nextLimit ?? this.#limit;
    return new PageRequest(this.#lister, { continue: token, limit }, this.#signal, this.#sizing);
  }
}
