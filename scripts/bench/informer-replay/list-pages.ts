/**
 * List pages of any `limit`, put together from bytes encoded once: the collection is encoded in
 * blocks of BLOCK objects (JSON: the items' text; protobuf: the items' fields of the List message),
 * and a page is a list head followed by whole blocks — as many as fit the limit, at least one (a
 * server may return fewer objects than `limit`). A page, once asked for, is kept, so later rounds
 * are served without any work. Continue tokens are `p<first block of the next page>`.
 */
import { encodeObject } from "@kubesdk/models";

export const BLOCK = 500;

export interface Encoded {
  readonly json: Buffer;
  readonly protobuf: Buffer;
}

interface ListMeta {
  readonly resourceVersion: string;
  readonly continue?: string;
  readonly remainingItemCount?: number;
}

const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

function varint(n: number): Buffer {
  const out: number[] = [];
  for (; n >= 0x80; n = Math.floor(n / 0x80)) out.push((n % 0x80) | 0x80);
  out.push(n);
  return Buffer.from(out);
}

/** The length-delimited fields of a message, as [field number, whole field bytes, value bytes]. */
function fields(bytes: Buffer): [number, Buffer, Buffer][] {
  const out: [number, Buffer, Buffer][] = [];
  let p = 0;
  const read = () => {
    let n = 0;
    for (let mul = 1; ; mul *= 0x80) {
      const c = bytes[p++] as number;
      n += (c & 0x7f) * mul;
      if (c < 0x80) return n;
    }
  };
  while (p < bytes.length) {
    const start = p;
    const tag = read();
    if ((tag & 7) !== 2) throw new Error(`unexpected wire type ${tag & 7} in a list envelope`);
    const n = read();
    out.push([tag >>> 3, bytes.subarray(start, p + n), bytes.subarray(p, p + n)]);
    p += n;
  }
  return out;
}

/** The envelope of `list` split around the List message: [before it, the message, after it]. */
function envelope(list: object): [Buffer, Buffer, Buffer] {
  const unknown = Buffer.from(encodeObject(list)).subarray(MAGIC.length);
  const parts = fields(unknown);
  const i = parts.findIndex(([n]) => n === 2);
  const raw = parts[i]?.[2] as Buffer;
  return [
    Buffer.concat(parts.slice(0, i).map(([, whole]) => whole)),
    raw,
    Buffer.concat(parts.slice(i + 1).map(([, whole]) => whole)),
  ];
}

export class ListPages<T> {
  readonly #items: readonly T[];
  readonly #resourceVersion: string;
  readonly #jsonBlocks: string[] = [];
  readonly #protobufBlocks: Buffer[] = [];
  readonly #kept = new Map<string, Encoded>();

  constructor(items: readonly T[], resourceVersion: string) {
    this.#items = items;
    this.#resourceVersion = resourceVersion;
    for (let start = 0; start < items.length; start += BLOCK) {
      const block = items.slice(start, start + BLOCK);
      this.#jsonBlocks.push(JSON.stringify(block).slice(1, -1));
      const [, raw] = envelope(this.#list({ resourceVersion }, block));
      // The block's List message without its metadata field: the items' fields alone.
      this.#protobufBlocks.push(Buffer.concat(fields(raw).flatMap(([n, whole]) => (n === 2 ? [whole] : []))));
    }
  }

  get blocks(): number {
    return this.#jsonBlocks.length;
  }

  /** The page starting at block `first` with at most `limit` objects (whole blocks, at least one). */
  page(first: number, limit: number): Encoded {
    const end = Math.min(this.blocks, first + Math.max(1, Math.floor(limit / BLOCK)));
    const key = `${first}:${end}`;
    const kept = this.#kept.get(key);
    if (kept !== undefined) return kept;
    const rest = this.#items.length - Math.min(this.#items.length, end * BLOCK);
    const meta: ListMeta = {
      resourceVersion: this.#resourceVersion,
      ...(end < this.blocks ? { continue: `p${end}`, remainingItemCount: rest } : {}),
    };
    const head = JSON.stringify(this.#list(meta, [])).slice(0, -2);
    const json = Buffer.from(`${head}${this.#jsonBlocks.slice(first, end).join(",")}]}`);
    const [before, metaRaw, after] = envelope(this.#list(meta, []));
    const raw = Buffer.concat([metaRaw, ...this.#protobufBlocks.slice(first, end)]);
    const protobuf = Buffer.concat([MAGIC, before, Buffer.from([0x12]), varint(raw.length), raw, after]);
    const encoded = { json, protobuf };
    this.#kept.set(key, encoded);
    return encoded;
  }

  #list(metadata: ListMeta, items: readonly T[]) {
    return { apiVersion: "v1", kind: "ConfigMapList", metadata, items };
  }
}
