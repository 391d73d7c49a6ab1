/**
 * Requests of a paged list that keep one page ahead: the page after the one being waited for is
 * asked for as soon as its continue token is known — from the first bytes of the answer when the
 * lister reports it early (see ListerWatcher.list's `onContinue`), so it travels while this page is
 * decoded; otherwise once this page has arrived. Never more than one request beyond the page being
 * waited for is in flight.
 */
import type { ListerWatcher, ListerWatcherPage, ListQuery } from "./list-watcher.js";

export class PageRequest<T> {
  readonly #lister: ListerWatcher<T>;
  readonly #limit: number | undefined;
  readonly #signal: AbortSignal;
  readonly #page: Promise<ListerWatcherPage<T>>;
  /** The continue token this page reported early. */
  #token: string | undefined;
  #next: PageRequest<T> | undefined;
  #waitedFor = false;

  constructor(lister: ListerWatcher<T>, query: ListQuery, signal: AbortSignal) {
    this.#lister = lister;
    this.#limit = query.limit;
    this.#signal = signal;
    this.#page = lister.list(query, {
      signal,
      onContinue: (token) => {
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
    return new PageRequest(this.#lister, { continue: token, limit: this.#limit }, this.#signal);
  }

  #startNext(token: string): void {
    this.#next ??= new PageRequest(this.#lister, { continue: token, limit: this.#limit }, this.#signal);
  }
}
