/**
 * The protobuf envelope: the magic "k8s\0", then runtime.Unknown{typeMeta{apiVersion, kind}, raw,
 * contentEncoding, contentType}, where raw is the object's own message (no TypeMeta inside).
 */
import { protoMagic } from "../proto.js";
import { reasonOf, WireError } from "./errors.js";
import { len, runsPast, skip, str, tagOf, type WireReader } from "./fast-reader.js";
import type { WireWriter } from "./fast-writer.js";
import { PROTOBUF_MEDIA_TYPE } from "./media-types.js";

export function hasMagic(bytes: Uint8Array, at = 0, end = bytes.length): boolean {
  return (
    end - at >= 4 &&
    bytes[at] === protoMagic[0] &&
    bytes[at + 1] === protoMagic[1] &&
    bytes[at + 2] === protoMagic[2] &&
    bytes[at + 3] === protoMagic[3]
  );
}

/**
 * What openEnvelope read: the typeMeta, and where the object's own message lies in the reader's
 * bytes. Overwritten by the next call (read it before decoding an embedded object).
 */
export const opened = { apiVersion: "", kind: "", start: 0, end: 0, contentEncoding: "", contentType: "" };

/** Reads the envelope held by r.b[start, end) into `opened`. */
export function openEnvelope(r: WireReader, start: number, end: number): void {
  if (!hasMagic(r.b, start, end)) {
    const found = Buffer.from(r.b.subarray(start, Math.min(end, start + protoMagic.length)));
    const looksLikeJson = found.length > 0 && (found[0] === 0x7b || found[0] === 0x5b);
    throw new WireError(
      "PROTOBUF_MAGIC",
      `not a Kubernetes protobuf object: expected the magic 6b 38 73 00 ("k8s\\0"), found ` +
        `${found.length === 0 ? "no bytes" : `${found.toString("hex").replace(/(..)(?!$)/g, "$1 ")} (${JSON.stringify(found.toString("latin1"))})`}` +
        (looksLikeJson ? "; this looks like JSON" : ""),
    );
  }
  try {
    readUnknown(r, start + protoMagic.length, end);
  } catch (cause) {
    throw new WireError("PROTOBUF_ENVELOPE", `truncated or malformed envelope: ${reasonOf(cause)}`, {
      cause,
    });
  }
  // Upstream writes both as ""; anything else (gzip, a JSON raw) would be bytes we cannot read.
  if (opened.contentEncoding) {
    throw new WireError(
      "PROTOBUF_ENVELOPE",
      `unsupported contentEncoding ${JSON.stringify(opened.contentEncoding)}`,
    );
  }
  if (opened.contentType && opened.contentType !== PROTOBUF_MEDIA_TYPE) {
    throw new WireError("PROTOBUF_ENVELOPE", `unsupported contentType ${JSON.stringify(opened.contentType)}`);
  }
}

/** runtime.Unknown{typeMeta{apiVersion 1, kind 2} 1, raw 2, contentEncoding 3, contentType 4}. */
function readUnknown(r: WireReader, start: number, end: number): void {
  r.p = start;
  opened.apiVersion = "";
  opened.kind = "";
  opened.start = start;
  opened.end = start;
  opened.contentEncoding = "";
  opened.contentType = "";
  while (r.p < end) {
    const tag = tagOf(r);
    if (tag === 10) {
      const e = len(r, end);
      while (r.p < e) {
        const t = tagOf(r);
        if (t === 10) opened.apiVersion = str(r, e);
        else if (t === 18) opened.kind = str(r, e);
        else skip(r, t, e);
      }
      if (r.p !== e) runsPast();
    } else if (tag === 18) {
      opened.end = len(r, end);
      opened.start = r.p;
      r.p = opened.end;
    } else if (tag === 26) opened.contentEncoding = str(r, end);
    else if (tag === 34) opened.contentType = str(r, end);
    else skip(r, tag, end);
  }
  if (r.p !== end) runsPast();
}

/**
 * Seals the object message `w` holds (its bytes from 0) as "k8s\0" + runtime.Unknown{typeMeta,
 * raw, contentEncoding "", contentType ""}, copied out in one piece. `wrap`, given the envelope's
 * length, writes the fields that come before it when the envelope is embedded (a watch frame).
 */
export function sealEnvelope(
  w: WireWriter,
  apiVersion: string,
  kind: string,
  wrap?: (w: WireWriter, length: number) => void,
): Buffer {
  const body = w.pos;
  w.raw(protoMagic);
  w.varint(10);
  const typeMeta = w.begin();
  w.varint(10);
  w.string(apiVersion);
  w.varint(18);
  w.string(kind);
  w.end(typeMeta);
  w.varint(18);
  w.varint(body);
  const header = w.pos - body;
  const length = header + body + trailer.length;
  wrap?.(w, length);
  const prefix = w.pos - body - header;
  const out = Buffer.allocUnsafe(prefix + length);
  w.buf.copy(out, 0, body + header, w.pos);
  w.buf.copy(out, prefix, body, body + header);
  w.buf.copy(out, prefix + header, 0, body);
  out.set(trailer, prefix + header + body);
  return out;
}

/** contentEncoding and contentType, both empty (upstream writes them). */
const trailer = Uint8Array.of(26, 0, 34, 0);
