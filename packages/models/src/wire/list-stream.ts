/**
 * A protobuf list decoded while its body arrives. Each item is decoded as soon as its bytes are in
 * and no chunk is kept once it has been read, so a large list is never held twice (as bytes and as
 * objects) and its decoding overlaps its transfer. The result is decodeObject's for the same bytes.
 *
 * The body is "k8s\0" + runtime.Unknown{typeMeta 1, raw 2, contentEncoding 3, contentType 4}, and raw
 * is the list's message: ListMeta, then the items, each a length-delimited field. Only the items are
 * decoded on arrival; every other field is kept as bytes and decoded at the end by the same generated
 * decoders decodeObject uses, so merging, defaults and errors are theirs. A body laid out any other
 * way (no magic, raw before typeMeta, a kind that is not a built-in list) is collected whole and
 * handed to decodeObject.
 *
 * With `itemType`, each item starts with that apiVersion and kind, as an object read on its own
 * does. The wire carries neither for a list's items, and Go's JSON leaves them out, so decodeObject
 * gives items without them; a client that adds them afterwards would append them last and give
 * objects from lists another shape (hidden class) than the same kind's objects from watches.
 */
import { protoMagic } from "../proto.js";
import {
  decodeObject,
  type ListParts,
  listParts,
  messageError,
  type WireObject,
  type WireOptions,
} from "./codec.js";
import { openEnvelope, opened } from "./envelope.js";
import { WireError } from "./errors.js";
import { WireReader, withinField } from "./fast-reader.js";
import type { Int64Mode } from "./int64.js";

const RAW_TAG = 18;
/** A field header: a tag and a length, at most ten bytes each. */
const MAX_HEADER = 20;

/** What a {@link ProtobufListDecoder} takes: the codec's options, and the items' apiVersion and kind. */
export interface ListDecoderOptions extends WireOptions {
  /**
   * Set first on every item (the wire has none for them). A body handed to decodeObject because it
   * is laid out otherwise gets decodeObject's items, without them.
   */
  readonly itemType?: { readonly apiVersion: string; readonly kind: string };
}

/** What a field header read: the field's tag, and where its payload starts and ends (-1 when unknown). */
interface Header {
  tag: number;
  start: number;
  end: number;
}

/**
 * A field longer than what has arrived, completed by the chunks that follow. Only the bytes that
 * have arrived are held (never an allocation of the size a length announces).
 */
interface Partial {
  readonly parts: Buffer[];
  readonly size: number;
  filled: number;
  /** Where it goes: an item to decode, or a field of the list or of the envelope to keep. */
  readonly into: "item" | "list" | "envelope";
  readonly tag: number;
}

export class ProtobufListDecoder {
  readonly #options: WireOptions;
  readonly #int64: Int64Mode;
  /** The bytes after the last whole field of the previous chunk (a header cut in two). */
  #held: Buffer | undefined;
  /** The envelope's bytes other than raw: the magic, then its other fields in order. */
  readonly #envelope: Buffer[] = [];
  #magicChecked = false;
  /** Set while raw (the list's message) is being read. */
  #list: ListParts | undefined;
  /** The parts of the list last read (raw may come twice: the last one counts, as in decodeObject). */
  #lastParts: ListParts | undefined;
  #listKind = { apiVersion: "", kind: "" };
  #listLeft = 0;
  #listFields: Buffer[] = [];
  #items: unknown[] = [];
  #listSeen = false;
  #partial: Partial | undefined;
  /** Every byte from here on is kept and decoded at the end (a body not laid out as expected). */
  #whole: Buffer[] | undefined;
  #failure: unknown;

  readonly #itemApiVersion: string | undefined;
  readonly #itemKind: string | undefined;

  constructor(options: ListDecoderOptions = {}) {
    this.#options = options;
    this.#int64 = options.int64 ?? "number";
    this.#itemApiVersion = options.itemType?.apiVersion;
    this.#itemKind = options.itemType?.kind;
  }

  /** Reads one chunk of the body; throws a WireError when an item is malformed. */
  push(chunk: Uint8Array): void {
    if (this.#failure !== undefined) throw this.#failure;
    let b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.#whole !== undefined) {
      this.#whole.push(b);
      return;
    }
    try {
      let p = this.#partial === undefined ? 0 : this.#fill(b);
      if (p === b.length) return;
      if (this.#held !== undefined) {
        b = Buffer.concat([this.#held, b.subarray(p)]);
        p = 0;
        this.#held = undefined;
      }
      this.#consume(b, p);
    } catch (err) {
      this.#failure = err;
      throw err;
    }
  }

  /** The decoded list, once the body has ended. */
  end(): WireObject {
    if (this.#failure !== undefined) throw this.#failure;
    if (this.#whole !== undefined) return decodeObject(Buffer.concat(this.#whole), this.#options);
    if (this.#partial !== undefined || this.#held !== undefined || this.#list !== undefined) {
      throw new WireError(
        this.#list === undefined ? "PROTOBUF_ENVELOPE" : "PROTOBUF_MESSAGE",
        "truncated: the body ended inside a field",
      );
    }
    const envelope = Buffer.concat(this.#envelope);
    if (!this.#listSeen) return decodeObject(envelope, this.#options);
    // The envelope without raw gives the same typeMeta and the same checks as the whole body would.
    openEnvelope(new WireReader(envelope, this.#int64), 0, envelope.length);
    if (opened.apiVersion !== this.#listKind.apiVersion || opened.kind !== this.#listKind.kind) {
      throw new WireError("PROTOBUF_ENVELOPE", "the envelope's typeMeta changed after its list began");
    }
    return this.#assemble();
  }

  #assemble(): WireObject {
    const parts = this.#lastParts as ListParts;
    const rest = Buffer.concat(this.#listFields);
    const { apiVersion, kind } = this.#listKind;
    let list: WireObject;
    try {
      list = parts.decodeList(new WireReader(rest, this.#int64), rest.length, 0, undefined, apiVersion, kind);
    } catch (cause) {
      throw messageError(cause, parts.gvk);
    }
    if (this.#items.length > 0) (list as { items: unknown[] }).items = this.#items;
    return list;
  }

  /** Fills the field in progress from `b`; answers how many bytes of `b` it took. */
  #fill(b: Buffer): number {
    const partial = this.#partial as Partial;
    const n = Math.min(partial.size - partial.filled, b.length);
    partial.parts.push(b.subarray(0, n));
    partial.filled += n;
    if (partial.filled < partial.size) return n;
    this.#partial = undefined;
    const bytes = Buffer.concat(partial.parts, partial.size);
    if (partial.into === "item")
      this.#decodeItem(new WireReader(bytes, this.#int64), 0, bytes.length, partial.tag);
    else (partial.into === "list" ? this.#listFields : this.#envelope).push(bytes);
    this.#afterField();
    return n;
  }

  /** Where the fields start, past the magic; -1 when the magic is not all in yet, or is wrong. */
  #afterMagic(b: Buffer, p: number): number {
    if (this.#magicChecked) return p;
    if (b.length - p < protoMagic.length) {
      this.#hold(b, p);
      return -1;
    }
    this.#magicChecked = true;
    if (!protoMagic.every((byte, i) => b[p + i] === byte)) {
      this.#collectWhole(b, p);
      return -1;
    }
    this.#envelope.push(Buffer.from(b.subarray(p, p + protoMagic.length)));
    return p + protoMagic.length;
  }

  #consume(b: Buffer, from: number): void {
    let p = this.#afterMagic(b, from);
    if (p < 0) return;
    let reader: WireReader | undefined;
    const h: Header = { tag: 0, start: 0, end: 0 };
    while (p < b.length) {
      const inList = this.#list !== undefined;
      const limit = inList ? Math.min(b.length, p + this.#listLeft) : b.length;
      if (!readHeader(b, p, limit, h)) {
        const listEndsHere = inList && b.length - p >= this.#listLeft;
        if (!listEndsHere && limit - p < MAX_HEADER) {
          this.#hold(b, p);
          return;
        }
        if (!inList) {
          this.#collectWhole(b, p);
          return;
        }
        p = this.#keepRestOfList(b, p);
        continue;
      }
      if (!inList && h.tag === RAW_TAG) {
        if (!this.#beginList(h.end - h.start)) {
          this.#collectWhole(b, p);
          return;
        }
        p = h.start;
        this.#afterField();
        continue;
      }
      if (inList && h.end - p > this.#listLeft) {
        p = this.#keepRestOfList(b, p);
        continue;
      }
      if (inList) this.#listLeft -= h.end - p;
      const into = !inList ? "envelope" : h.tag === this.#itemTag ? "item" : "list";
      if (h.end > b.length) {
        if (into === "item") this.#keep(b, h.start, h.end, into, h.tag);
        else this.#keep(b, p, h.end, into, h.tag);
        return;
      }
      if (into === "item") {
        reader ??= new WireReader(b, this.#int64);
        this.#decodeItem(reader, h.start, h.end, h.tag);
      } else (into === "list" ? this.#listFields : this.#envelope).push(Buffer.from(b.subarray(p, h.end)));
      p = h.end;
      this.#afterField();
    }
  }

  /**
   * What is left of the list when it holds no field header where one should be, or a field running
   * past its end: kept as it is, so that the list's decoder reports it as decodeObject would.
   */
  #keepRestOfList(b: Buffer, p: number): number {
    const to = p + this.#listLeft;
    this.#listLeft = 0;
    this.#keep(b, p, to, "list", 0);
    return Math.min(to, b.length);
  }

  get #itemTag(): number {
    return ((this.#list as ListParts).itemsField << 3) | 2;
  }

  /** Starts reading raw as a list, when typeMeta has named a built-in list kind before it. */
  #beginList(length: number): boolean {
    const envelope = Buffer.concat(this.#envelope);
    try {
      openEnvelope(new WireReader(envelope, this.#int64), 0, envelope.length);
    } catch {
      return false;
    }
    const parts = opened.apiVersion === "" ? undefined : listParts(opened.apiVersion, opened.kind);
    if (parts === undefined) return false;
    this.#list = parts;
    this.#lastParts = parts;
    this.#listKind = { apiVersion: opened.apiVersion, kind: opened.kind };
    this.#listLeft = length;
    this.#listFields = [];
    this.#items = [];
    this.#listSeen = true;
    return true;
  }

  /** After each whole field: leaves the list once its last byte has been read. */
  #afterField(): void {
    if (this.#list !== undefined && this.#listLeft === 0 && this.#partial === undefined)
      this.#list = undefined;
  }

  #decodeItem(r: WireReader, start: number, end: number, tag: number): void {
    const parts = this.#list ?? (this.#lastParts as ListParts);
    const at = this.#items.length;
    r.p = start;
    try {
      this.#items.push(parts.decodeItem(r, end, 1, undefined, this.#itemApiVersion, this.#itemKind));
    } catch (cause) {
      throw messageError(withinField(cause, tag, at, { [parts.itemsField]: ".items" }), parts.gvk);
    }
  }

  /** Keeps b[from, to), the part of a field this chunk has; the rest comes with the next chunks. */
  #keep(b: Buffer, from: number, to: number, into: Partial["into"], tag: number): void {
    if (to <= b.length) {
      (into === "list" ? this.#listFields : this.#envelope).push(Buffer.from(b.subarray(from, to)));
      this.#afterField();
      return;
    }
    this.#partial = { parts: [b.subarray(from)], size: to - from, filled: b.length - from, into, tag };
  }

  #hold(b: Buffer, p: number): void {
    // A copy: holding a view would keep the whole chunk.
    this.#held = Buffer.from(b.subarray(p));
  }

  #collectWhole(b: Buffer, p: number): void {
    this.#whole = [...this.#envelope, b.subarray(p)];
  }
}

/**
 * Reads the field header at b[p, limit) into `h`: the tag, and the payload's extent for the wire
 * types whose length is known from the header (varint, 64-bit, length-delimited, 32-bit). False when
 * the bytes end first, or the wire type is one no list or envelope has.
 */
function readHeader(b: Buffer, p: number, limit: number, h: Header): boolean {
  const tag = varint(b, p, limit, h);
  if (tag < 0) return false;
  let at = h.start;
  switch (tag & 7) {
    case 0: {
      if (varint(b, at, limit, h) < 0) return false;
      h.end = h.start;
      h.start = at;
      break;
    }
    case 1:
      h.start = at;
      h.end = at + 8;
      break;
    case 2: {
      const length = varint(b, at, limit, h);
      if (length < 0) return false;
      at = h.start;
      h.start = at;
      h.end = at + length;
      break;
    }
    case 5:
      h.start = at;
      h.end = at + 4;
      break;
    default:
      return false;
  }
  h.tag = tag;
  return true;
}

/** The varint at b[p, limit) (lengths up to 2^53), with h.start just past it; -1 if cut short. */
function varint(b: Buffer, p: number, limit: number, h: Header): number {
  let value = 0;
  let scale = 1;
  for (let i = p; i < limit && i < p + 10; i++) {
    const byte = b[i] as number;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) {
      h.start = i + 1;
      return value;
    }
    scale *= 128;
  }
  return -1;
}
