/** A small seeded PRNG (mulberry32): the same seed gives the same CRDs, objects and order. */
export class Random {
  private state: number;
  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(xs: readonly T[]): T {
    const x = xs[Math.floor(this.next() * xs.length)];
    if (x === undefined) throw new Error("pick from an empty list");
    return x;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** Up to `max` distinct elements, in random order. */
  some<T>(xs: readonly T[], max: number): T[] {
    const pool = [...xs];
    const out: T[] = [];
    const n = this.int(0, Math.min(max, pool.length));
    for (let i = 0; i < n; i++) out.push(...pool.splice(Math.floor(this.next() * pool.length), 1));
    return out;
  }
}
