/**
 * The protobuf envelope: the magic "k8s\0", then runtime.Unknown{typeMeta{apiVersion, kind}, raw,
 * contentEncoding, contentType}, where raw is the object's own message (no TypeMeta inside).
 */
import { protoMagic } from "../proto.js";
import { reasonOf, WireError } from "./errors.js";
import { len, raw, runsPast, skip, str, tagOf, WireReader } from "./fast-reader.js";
import { PROTOBUF_MEDIA_TYPE } from "./media-types.js";

export interface Envelope {
  readonly apiVersion: string;
  readonly kind: string;
  readonly raw: Uint8Array;
}

export function hasMagic(bytes: Uint8Array): boolean {
  return bytes.length >= protoMagic.length && protoMagic.every((b, i) => bytes[i] === b);
}

export function openEnvelope(bytes: Uint8Array): Envelope {
  if (!hasMagic(bytes)) {
    const found = Buffer.from(bytes.subarray(0, protoMagic.length));
    const looksLikeJson = found.length > 0 && (found[0] === 0x7b || found[0] === 0x5b);
    throw new WireError(
      "PROTOBUF_MAGIC",
      `not a Kubernetes protobuf object: expected the magic 6b 38 73 00 ("k8s\\0"), found ` +
        `${found.length === 0 ? "no bytes" : `${found.toString("hex").replace(/(..)(?!$)/g, "$1 ")} (${JSON.stringify(found.toString("latin1"))})`}` +
        (looksLikeJson ? "; this looks like JSON" : ""),
    );
  }
  let envelope: UnknownMessage;
  try {
    envelope = readUnknown(new WireReader(bytes, "number"), protoMagic.length, bytes.length);
  } catch (cause) {
    throw new WireError("PROTOBUF_ENVELOPE", `truncated or malformed envelope: ${reasonOf(cause)}`, {
      cause,
    });
  }
  // Upstream writes both as ""; anything else (gzip, a JSON raw) would be bytes we cannot read.
  if (envelope.contentEncoding) {
    throw new WireError(
      "PROTOBUF_ENVELOPE",
      `unsupported contentEncoding ${JSON.stringify(envelope.contentEncoding)}`,
    );
  }
  if (envelope.contentType && envelope.contentType !== PROTOBUF_MEDIA_TYPE) {
    throw new WireError(
      "PROTOBUF_ENVELOPE",
      `unsupported contentType ${JSON.stringify(envelope.contentType)}`,
    );
  }
  return {
    apiVersion: envelope.apiVersion,
    kind: envelope.kind,
    raw: envelope.raw,
  };
}

interface UnknownMessage {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  contentEncoding: string;
  contentType: string;
}

/** runtime.Unknown{typeMeta{apiVersion 1, kind 2} 1, raw 2, contentEncoding 3, contentType 4}. */
function readUnknown(r: WireReader, start: number, end: number): UnknownMessage {
  r.p = start;
  const out: UnknownMessage = {
    apiVersion: "",
    kind: "",
    raw: new Uint8Array(0),
    contentEncoding: "",
    contentType: "",
  };
  while (r.p < end) {
    const tag = tagOf(r);
    if (tag === 10) {
      const e = len(r, end);
      while (r.p < e) {
        const t = tagOf(r);
        if (t === 10) out.apiVersion = str(r, e);
        else if (t === 18) out.kind = str(r, e);
        else skip(r, t, e);
      }
      if (r.p !== e) runsPast();
    } else if (tag === 18) out.raw = raw(r, end);
    else if (tag === 26) out.contentEncoding = str(r, end);
    else if (tag === 34) out.contentType = str(r, end);
    else skip(r, tag, end);
  }
  if (r.p !== end) runsPast();
  return out;
}

export function sealEnvelope(envelope: Envelope): Uint8Array {
  const apiVersion = Buffer.from(envelope.apiVersion, "utf8");
  const kind = Buffer.from(envelope.kind, "utf8");
  const typeMeta = new ByteWriter().bytesField(1, apiVersion).bytesField(2, kind);
  const w = new ByteWriter();
  w.raw(protoMagic);
  w.tag(1, 2).varint(typeMeta.length).raw(typeMeta.finish());
  w.bytesField(2, envelope.raw).bytesField(3, empty).bytesField(4, empty);
  return w.finish();
}

const empty = new Uint8Array(0);

/** Just enough of a protobuf writer for the envelope and watch event frames. */
export class ByteWriter {
  #parts: Uint8Array[] = [];
  length = 0;

  raw(bytes: Uint8Array): this {
    this.#parts.push(bytes);
    this.length += bytes.length;
    return this;
  }

  varint(value: number): this {
    const bytes: number[] = [];
    let v = value;
    while (v > 0x7f) {
      bytes.push((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    bytes.push(v);
    return this.raw(Uint8Array.from(bytes));
  }

  tag(field: number, wireType: number): this {
    return this.varint((field << 3) | wireType);
  }

  bytesField(field: number, bytes: Uint8Array): this {
    return this.tag(field, 2).varint(bytes.length).raw(bytes);
  }

  finish(): Uint8Array {
    return Buffer.concat(this.#parts, this.length);
  }
}
