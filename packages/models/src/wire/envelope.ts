/**
 * The protobuf envelope: the magic "k8s\0", then runtime.Unknown{typeMeta{apiVersion, kind}, raw,
 * contentEncoding, contentType}, where raw is the object's own message (no TypeMeta inside).
 */
import { protoMagic, protoMessageNames, protoType } from "../proto.js";
import { reasonOf, WireError } from "./errors.js";
import { PROTOBUF_MEDIA_TYPE } from "./media-types.js";

export interface Envelope {
  readonly apiVersion: string;
  readonly kind: string;
  readonly raw: Uint8Array;
}

interface UnknownMessage {
  typeMeta?: { apiVersion?: string; kind?: string };
  raw?: Uint8Array;
  contentEncoding?: string;
  contentType?: string;
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
    envelope = protoType(protoMessageNames.unknown).decode(
      bytes.subarray(protoMagic.length),
    ) as UnknownMessage;
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
    apiVersion: envelope.typeMeta?.apiVersion ?? "",
    kind: envelope.typeMeta?.kind ?? "",
    raw: envelope.raw ?? new Uint8Array(0),
  };
}

export function sealEnvelope(envelope: Envelope): Uint8Array {
  const body = protoType(protoMessageNames.unknown)
    .encode({
      typeMeta: { apiVersion: envelope.apiVersion, kind: envelope.kind },
      raw: envelope.raw,
      contentEncoding: "",
      contentType: "",
    })
    .finish();
  const out = new Uint8Array(protoMagic.length + body.length);
  out.set(protoMagic, 0);
  out.set(body, protoMagic.length);
  return out;
}
