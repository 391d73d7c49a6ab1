/**
 * DelayHeap: the keys of a work queue that wait for a delay, as a binary min-heap on due time with
 * one entry per key.
 *
 * Why a heap of our own: it keeps one timer per queue (not one per delayed key), and keys due at
 * the same instant come out in the order of client-go's delaying queue, which also keeps a binary
 * heap (children of i at 2i+1 and 2i+2, an entry moves only past a strictly later one). Sharing
 * that rule makes the two queues hand out tied keys in the same order, which the differential test
 * in scripts/workqueue-diff relies on. No npm heap exposes in-place decrease-key with this rule.
 */
interface Entry<K> {
  readonly key: K;
  at: number;
  index: number;
}

export class DelayHeap<K> {
  readonly #heap: Entry<K>[] = [];
  readonly #byKey = new Map<K, Entry<K>>();

  get size(): number {
    return this.#heap.length;
  }

  /** Due time of the earliest key, if any. */
  peekAt(): number | undefined {
    return this.#heap[0]?.at;
  }

  /** Adds `key` due at `at`; a key already waiting keeps the earlier of its two due times. */
  schedule(key: K, at: number): void {
    const entry = this.#byKey.get(key);
    if (entry !== undefined) {
      if (at < entry.at) {
        entry.at = at;
        if (!this.#down(entry.index)) this.#up(entry.index);
      }
      return;
    }
    const added: Entry<K> = { key, at, index: this.#heap.length };
    this.#heap.push(added);
    this.#byKey.set(key, added);
    this.#up(added.index);
  }

  /** Removes and returns the earliest key if it is due at or before `now`. */
  popDue(now: number): K | undefined {
    const first = this.#heap[0];
    if (first === undefined || first.at > now) return undefined;
    const last = this.#heap.length - 1;
    this.#swap(0, last);
    this.#down(0, last);
    this.#heap.pop();
    this.#byKey.delete(first.key);
    return first.key;
  }

  clear(): void {
    this.#heap.length = 0;
    this.#byKey.clear();
  }

  #less(i: number, j: number): boolean {
    return (this.#heap[i] as Entry<K>).at < (this.#heap[j] as Entry<K>).at;
  }

  #swap(i: number, j: number): void {
    const a = this.#heap[i] as Entry<K>;
    const b = this.#heap[j] as Entry<K>;
    this.#heap[i] = b;
    this.#heap[j] = a;
    a.index = j;
    b.index = i;
  }

  #up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#less(i, parent)) break;
      this.#swap(i, parent);
      i = parent;
    }
  }

  /** Sifts entry i down within the first n entries; true if it moved. */
  #down(start: number, n = this.#heap.length): boolean {
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && this.#less(right, left) ? right : left;
      if (!this.#less(child, i)) break;
      this.#swap(i, child);
      i = child;
    }
    return i > start;
  }
}
