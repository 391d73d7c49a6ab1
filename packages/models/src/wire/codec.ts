/**
 * Built-in objects between their JSON form (exactly what the apiserver's JSON looks like) and
 * the enveloped protobuf form the apiserver and kubectl speak.
 *
 *   const bytes = encodeObject({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "x" } });
 *   decodeObject(bytes) // { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "x" } }
 */
import { protoPackages } from "../generated/proto.js";
import { protoDecoders, protoListItems } from "../generated/proto-decode.js";
import { protoEncoders } from "../generated/proto-encode.js";
import { apiVersionOf, type GroupVersionKind, parseApiVersion } from "../gvk.js";
import type { KubernetesObject } from "../object.js";
import { metaKinds, metaPackage } from "../proto.js";
import { openEnvelope, opened, sealEnvelope } from "./envelope.js";
import { reasonOf, WireError } from "./errors.js";
import { type Decoder, maxWireDepth, WireReader } from "./fast-reader.js";
import { embedded } from "./fast-special.js";
import { releaseWriter, takeWriter, type WireWriter } from "./fast-writer.js";
import type { Int64Mode } from "./int64.js";
import { isPlainObject } from "./scalars.js";

/** An object in its JSON form. */
export type WireObject = KubernetesObject & Record<string, unknown>;

export interface WireOptions {
  /**
   * The kind to use when the object (encode) or the envelope (decode) carries no apiVersion/kind.
   * Upstream writes some objects that way (a bare WatchEvent); their JSON has no apiVersion/kind
   * either, and the result keeps it that way.
   */
  readonly kind?: GroupVersionKind;
  /**
   * Decoding: how an int64 beyond ±(2^53 − 1) comes out. "number" (the default) throws a
   * WireError PROTOBUF_INT64 rather than round it; "bigint" and "string" give it exactly.
   * Values within the safe range are numbers in every mode. Encoding accepts all three forms.
   */
  readonly int64?: Int64Mode;
}

/** "k8s\0" + runtime.Unknown{typeMeta, raw: the object's message} for a built-in object. */
export function encodeObject(object: object, options: WireOptions = {}): Uint8Array {
  return encodeEnveloped(object, options);
}

/** encodeObject, with the fields `wrap` writes in front of the envelope (see sealEnvelope). */
export function encodeEnveloped(
  object: object,
  options: WireOptions,
  wrap?: (w: WireWriter, length: number) => void,
): Buffer {
  if (!isPlainObject(object)) throw new WireError("PROTOBUF_VALUE", "expected an object to encode");
  const { apiVersion, kind } = object;
  const typed =
    typeof apiVersion === "string" && apiVersion !== "" && typeof kind === "string" && kind !== "";
  let encode: Encoder;
  if (typed) encode = knownKind(apiVersion, kind).encode;
  else if (options.kind) encode = encoderFor(options.kind);
  else throw new WireError("PROTOBUF_NO_KIND", "the object has no apiVersion/kind and no kind was given");
  const writer = takeWriter();
  try {
    encode(writer, object, 0);
    return typed ? sealEnvelope(writer, apiVersion, kind, wrap) : sealEnvelope(writer, "", "", wrap);
  } finally {
    releaseWriter(writer);
  }
}

/** The JSON form of an enveloped protobuf object, with apiVersion and kind first. */
export function decodeObject(bytes: Uint8Array, options: WireOptions = {}): WireObject {
  return decodeEnveloped(new WireReader(bytes, options.int64 ?? "number"), 0, bytes.length, options, 0);
}

type Encoder = (w: WireWriter, v: unknown, depth: number) => void;

interface KnownKind {
  readonly apiVersion: string;
  readonly kind: string;
  readonly gvk: GroupVersionKind;
  readonly decode: Decoder;
  readonly encode: Encoder;
}

/** The kinds seen so far, by "apiVersion kind" (watch streams and lists repeat one kind). */
const knownKinds = new Map<string, KnownKind>();
let lastKind: KnownKind | undefined;

function knownKind(apiVersion: string, kind: string): KnownKind {
  // The strings are usually the very ones read last time (the decoder caches short strings).
  if (lastKind !== undefined && lastKind.apiVersion === apiVersion && lastKind.kind === kind) return lastKind;
  let known = knownKinds.get(`${apiVersion} ${kind}`);
  if (known === undefined) {
    const gvk = { ...parseApiVersion(apiVersion), kind };
    known = { apiVersion, kind, gvk, decode: decoderFor(gvk), encode: encoderFor(gvk) };
    if (knownKinds.size >= 1024) knownKinds.clear();
    knownKinds.set(`${apiVersion} ${kind}`, known);
  }
  lastKind = known;
  return known;
}

/** The object enveloped in r.b[start, end), as decodeObject returns it. */
export function decodeEnveloped(
  r: WireReader,
  start: number,
  end: number,
  options: WireOptions,
  outerDepth: number,
): WireObject {
  if (outerDepth > maxWireDepth) {
    throw new WireError("PROTOBUF_DEPTH", `messages nested deeper than ${maxWireDepth} levels`);
  }
  openEnvelope(r, start, end);
  const { apiVersion, kind, start: rawStart, end: rawEnd } = opened;
  if (apiVersion === "" || kind === "") {
    const gvk = options.kind;
    if (!gvk) {
      throw new WireError(
        "PROTOBUF_UNKNOWN_KIND",
        "the envelope names no apiVersion/kind and no kind was given",
      );
    }
    const decode = decoderFor(gvk);
    r.p = rawStart;
    try {
      return decode(r, rawEnd, outerDepth);
    } catch (cause) {
      throw messageError(cause, gvk);
    }
  }
  const known = knownKind(apiVersion, kind);
  r.p = rawStart;
  try {
    return known.decode(r, rawEnd, outerDepth, undefined, apiVersion, kind);
  } catch (cause) {
    throw messageError(cause, known.gvk);
  }
}

/** How a list kind's message is decoded a piece at a time (see list-stream.ts). */
export interface ListParts {
  readonly gvk: GroupVersionKind;
  /** The list message without its items. */
  readonly decodeList: Decoder;
  readonly itemsField: number;
  readonly decodeItem: Decoder;
}

/** The parts of a built-in list kind whose items are messages; undefined for any other kind. */
export function listParts(apiVersion: string, kind: string): ListParts | undefined {
  const gvk = { ...parseApiVersion(apiVersion), kind };
  const name = messageNameFor(gvk);
  const items = name === undefined ? undefined : protoListItems[name];
  if (name === undefined || items === undefined) return undefined;
  return { gvk, decodeList: protoDecoders[name] as Decoder, itemsField: items[0], decodeItem: items[1] };
}

/** Structure errors name the kind whose bytes are wrong (once, for embedded objects too). */
const named = new WeakSet<object>();

export function messageError(cause: unknown, gvk: GroupVersionKind): unknown {
  if (cause instanceof WireError && (cause.code !== "PROTOBUF_MESSAGE" || named.has(cause))) return cause;
  const reason = cause instanceof WireError ? cause.reason : `truncated or malformed: ${reasonOf(cause)}`;
  const field = cause instanceof WireError ? cause.field : undefined;
  const error = new WireError("PROTOBUF_MESSAGE", `${describeKind(gvk)} message: ${reason}`, {
    field,
    cause,
  });
  named.add(error);
  return error;
}

embedded.decode = (bytes, int64, depth) =>
  decodeEnveloped(new WireReader(bytes, int64), 0, bytes.length, { int64 }, depth);

function encoderFor(gvk: GroupVersionKind): Encoder {
  const name = messageNameFor(gvk);
  const encoder = name === undefined ? undefined : protoEncoders[name];
  if (!encoder) throw unknownKind(gvk);
  return encoder;
}

/** The message of a built-in kind: its group version's, else meta/v1's for the kinds every group has. */
function messageNameFor(gvk: GroupVersionKind): string | undefined {
  const pkg = protoPackages[apiVersionOf(gvk)];
  const own = pkg === undefined ? undefined : `${pkg}.${gvk.kind}`;
  if (own !== undefined && Object.hasOwn(protoDecoders, own)) return own;
  return metaKinds.has(gvk.kind) ? `${metaPackage}.${gvk.kind}` : undefined;
}

function decoderFor(gvk: GroupVersionKind): Decoder {
  const name = messageNameFor(gvk);
  const decoder = name === undefined ? undefined : protoDecoders[name];
  if (!decoder) throw unknownKind(gvk);
  return decoder;
}

function unknownKind(gvk: GroupVersionKind): WireError {
  return new WireError(
    "PROTOBUF_UNKNOWN_KIND",
    `${describeKind(gvk)} has no protobuf form (protobuf covers built-in kinds only; Table and custom resources are JSON-only)`,
  );
}

function describeKind(gvk: GroupVersionKind): string {
  return `${JSON.stringify(gvk.kind)} in ${JSON.stringify(apiVersionOf(gvk))}`;
}
