/**
 * Keys in the order they were added, taken from the front in O(1): Array#shift moves every item,
 * and a Map iterated from its start walks the holes its deletes left (until it is rehashed), so
 * the caches that evict their oldest entries (watch/watch-hub.ts's frames, storage/object-text.ts's
 * texts) keep their order here. Taken slots are dropped in one slice once they are most of the array.
 */
export class FifoQueue<T> {
  private items: T[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  /** The oldest item, taken off; undefined when empty. */
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head++] as T;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Puts `item` back in front, as the oldest (an item shift just returned). */
  unshift(item: T): void {
    if (this.head > 0) this.items[--this.head] = item;
    else this.items.unshift(item);
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }
}
