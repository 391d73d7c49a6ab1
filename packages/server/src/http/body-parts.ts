/**
 * A response body as a list of byte ranges, written to the socket without first being joined into
 * one buffer (http/respond.ts writeBytes). Big lists are mostly items whose bytes were cached when
 * they were first shown (http/list-encode.ts), and those caches put the items encoded together
 * into one buffer, back to back: a run of such neighbours is one range, not one part per item, so
 * a list of 50,000 cached items is a few dozen ranges, neither copied into a 20 MiB body nor walked
 * part by part by Buffer.concat.
 */

/** The body's parts, in order; their bytes joined are the body. */
export type BodyParts = readonly Buffer[];

export function bodyLength(parts: BodyParts): number {
  let length = 0;
  for (const part of parts) length += part.length;
  return length;
}

/**
 * Appends byte ranges, merging a range into the one before it when it starts where that one ends
 * in the same slab, or one separator byte later with that byte being the separator. The merged
 * range holds exactly the bytes the two parts and the separator would give: it is the same memory,
 * which nothing writes once a cache made it.
 */
export class PartRuns {
  private readonly parts: Buffer[] = [];
  /** The slab of the current run's range (undefined: no run open). */
  private slab: Uint8Array | undefined;
  private start = 0;
  private end = 0;
  private count = 0;

  /** `separator` (0–1 bytes) goes between items: ',' for JSON, nothing for protobuf. */
  constructor(private readonly separator: Buffer) {}

  /** Appends a part that comes from no cache (an envelope's head or tail). */
  raw(bytes: Buffer): void {
    this.flush();
    this.parts.push(bytes);
  }

  /** Appends one item that is never merged with its neighbours (its memory is not a cache's). */
  loose(bytes: Buffer): void {
    this.flush();
    if (this.count++ > 0) this.parts.push(this.separator);
    this.parts.push(bytes);
  }

  /** Appends bytes [start, end) of a cache's slab as one item, preceded by the separator unless it is the first. */
  item(slab: Uint8Array, start: number, end: number): void {
    const first = this.count++ === 0;
    const sep = first ? 0 : this.separator.length;
    if (
      slab === this.slab &&
      start === this.end + sep &&
      (sep === 0 || slab[this.end] === this.separator[0])
    ) {
      this.end = end;
      return;
    }
    this.flush();
    if (sep > 0) this.parts.push(this.separator);
    this.slab = slab;
    this.start = start;
    this.end = end;
  }

  /** The parts so far; the builder is done after this. */
  done(): Buffer[] {
    this.flush();
    return this.parts;
  }

  private flush(): void {
    if (this.slab === undefined) return;
    const { buffer, byteOffset } = this.slab;
    this.parts.push(Buffer.from(buffer, byteOffset + this.start, this.end - this.start));
    this.slab = undefined;
  }
}
