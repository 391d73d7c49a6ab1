/**
 * The buffer of a streaming list: the events of the initial state, kept until the bookmark that ends
 * it, with progress reported in batches of the page size, like the pages of a list.
 */
import type { KubernetesObject } from "@kubesdk/models";
import type { ListPageInfo } from "./events.js";
import { objectKey } from "./object-meta.js";

export class InitialEvents<T extends KubernetesObject> {
  readonly #objects = new Map<string, T>();
  readonly #batch: number;
  readonly #onPage: (info: ListPageInfo) => void;
  #pages = 0;
  #reported = 0;

  constructor(batch: number, onPage: (info: ListPageInfo) => void) {
    this.#batch = batch;
    this.#onPage = onPage;
  }

  /** One event of the initial state (a DELETED one drops what came before it). */
  add(type: "ADDED" | "MODIFIED" | "DELETED", obj: T): void {
    if (type === "DELETED") this.#objects.delete(objectKey(obj));
    else this.#objects.set(objectKey(obj), obj);
    if (this.#objects.size - this.#reported >= this.#batch) this.#report(true);
  }

  /** Reports the last batch; the complete initial state and how many batches it was reported in. */
  finish(): { readonly items: T[]; readonly pages: number } {
    this.#report(false);
    return { items: [...this.#objects.values()], pages: this.#pages };
  }

  #report(more: boolean): void {
    const size = this.#objects.size;
    this.#pages++;
    this.#onPage({
      page: this.#pages,
      items: Math.max(0, size - this.#reported),
      total: size,
      more,
      streaming: true,
    });
    this.#reported = size;
  }
}
