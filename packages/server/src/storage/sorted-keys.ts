/**
 * SortedKeys keeps one bucket's keys in byte order, the order etcd ranges over
 * and so the order upstream lists and continue tokens follow.
 * Insertion is a binary search plus an array splice: a memmove of pointers, cheap
 * even at 100 000 keys, and it makes "start at key K" a binary search.
 */
export class SortedKeys {
  private readonly keys: string[] = [];

  get size(): number {
    return this.keys.length;
  }

  /** Index of the first key >= `key`. */
  lowerBound(key: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.keys[mid] as string) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(key: string): void {
    const i = this.lowerBound(key);
    if (this.keys[i] !== key) this.keys.splice(i, 0, key);
  }

  remove(key: string): void {
    const i = this.lowerBound(key);
    if (this.keys[i] === key) this.keys.splice(i, 1);
  }

  at(i: number): string | undefined {
    return this.keys[i];
  }
}
