/**
 * A first-in first-out queue with O(1) amortised push and shift (an array with a moving head, compacted
 * once the consumed part dominates). Hand-written: arrays' own shift() is O(n), and the informer's
 * queues can hold a whole relist.
 */
export class Fifo<T> {
  #items: (T | undefined)[] = [];
  #head = 0;

  get length(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  /** The oldest item, left in place. */
  peek(): T | undefined {
    return this.#items[this.#head];
  }

  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head];
    this.#items[this.#head] = undefined;
    this.#head++;
    if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }

  /** Items from oldest to newest. */
  *[Symbol.iterator](): IterableIterator<T> {
    for (let i = this.#head; i < this.#items.length; i++) yield this.#items[i] as T;
  }

  /** Items from newest to oldest. */
  *reversed(): IterableIterator<T> {
    for (let i = this.#items.length - 1; i >= this.#head; i--) yield this.#items[i] as T;
  }

  clear(): void {
    this.#items = [];
    this.#head = 0;
  }
}
