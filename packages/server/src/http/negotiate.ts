/**
 * Accept negotiation as the apiserver does it: a list of media ranges with
 * q-values and `as=`/`g=`/`v=` parameters for Table and metadata-only forms.
 */
import {
  APPLY_PATCH_CBOR_MEDIA_TYPE,
  APPLY_PATCH_MEDIA_TYPE,
  JSON_MEDIA_TYPE,
  JSON_PATCH_MEDIA_TYPE,
  MERGE_PATCH_MEDIA_TYPE,
  mediaTypeOf,
  PROTOBUF_MEDIA_TYPE,
  PROTOBUF_WATCH_MEDIA_TYPE,
  STRATEGIC_MERGE_PATCH_MEDIA_TYPE,
  YAML_MEDIA_TYPE,
} from "@kubesdk/models";
export type Encoding = "json" | "yaml" | "protobuf";
export type Shape = "Table" | "PartialObjectMetadata" | "PartialObjectMetadataList";

export interface MediaChoice {
  readonly encoding: Encoding;
  readonly shape?: Shape;
  /** meta.k8s.io version the shape was requested in (v1 or v1beta1). */
  readonly shapeVersion?: string;
  readonly pretty: boolean;
}

export const ACCEPTED_TYPES = [JSON_MEDIA_TYPE, YAML_MEDIA_TYPE, PROTOBUF_MEDIA_TYPE];
export const STREAM_ACCEPTED_TYPES = [
  JSON_MEDIA_TYPE,
  YAML_MEDIA_TYPE,
  PROTOBUF_MEDIA_TYPE,
  "application/json;stream=watch",
  PROTOBUF_WATCH_MEDIA_TYPE,
];

export interface MediaRange {
  readonly type: string;
  readonly params: ReadonlyMap<string, string>;
  readonly q: number;
  readonly index: number;
}

/**
 * Parsed Accept headers by their text: a client sends the same header on every request, and the
 * parse (a split, a Map per range, a sort) was paid per request. Bounded: cleared when full.
 */
const parsedAccepts = new Map<string, readonly MediaRange[]>();
const MAX_PARSED_ACCEPTS = 256;

/** The media ranges of an Accept header, best first (the answer is shared: read it, never change it). */
export function parseAccept(header: string): readonly MediaRange[] {
  let ranges = parsedAccepts.get(header);
  if (ranges === undefined) {
    if (parsedAccepts.size >= MAX_PARSED_ACCEPTS) parsedAccepts.clear();
    ranges = parseAcceptOnce(header);
    parsedAccepts.set(header, ranges);
  }
  return ranges;
}

function parseAcceptOnce(header: string): MediaRange[] {
  return header
    .split(",")
    .map((part, index) => {
      const [rawType = "", ...rawParams] = part.split(";");
      const params = new Map<string, string>();
      for (const p of rawParams) {
        const eq = p.indexOf("=");
        if (eq > 0)
          params.set(
            p.slice(0, eq).trim().toLowerCase(),
            p
              .slice(eq + 1)
              .trim()
              .replace(/^"|"$/g, ""),
          );
      }
      const qs = params.get("q");
      const q = qs === undefined ? 1 : Number(qs);
      params.delete("q");
      return { type: rawType.trim().toLowerCase(), params, q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((r) => r.type !== "" && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
}

function encodingOf(type: string, protobufAllowed: boolean): Encoding | undefined {
  switch (type) {
    case JSON_MEDIA_TYPE:
    case "application/*":
    case "*/*":
      return "json";
    case YAML_MEDIA_TYPE:
      return "yaml";
    case PROTOBUF_MEDIA_TYPE:
      return protobufAllowed ? "protobuf" : undefined;
    default:
      return undefined;
  }
}

/**
 * Picks the representation for a response. Returns undefined when nothing in the
 * header can be served (the caller answers 406). `shapes` are the transformed
 * forms this endpoint supports (e.g. Table only for get/list/watch).
 */
export function negotiate(
  header: string | undefined,
  opts: { protobuf: boolean; shapes: readonly Shape[]; pretty?: boolean },
): MediaChoice | undefined {
  const pretty = opts.pretty ?? false;
  // What most clients send (ours for JSON reads and writes): its parse, which a process's first
  // request also compiled, would say the same (docs/performance-history.md, session 22).
  if (!header || header === JSON_MEDIA_TYPE || header.trim() === "") return { encoding: "json", pretty };
  for (const r of parseAccept(header)) {
    const as = r.params.get("as");
    if (as !== undefined) {
      const g = r.params.get("g");
      const v = r.params.get("v");
      if (g !== "meta.k8s.io" || (v !== "v1" && v !== "v1beta1")) continue;
      if (!(opts.shapes as readonly string[]).includes(as)) continue;
      const shape = as as Shape;
      // Table has no protobuf form.
      const encoding = encodingOf(r.type, opts.protobuf && shape !== "Table");
      if (encoding === undefined || encoding === "yaml") continue;
      return { encoding, shape, shapeVersion: v, pretty };
    }
    const encoding = encodingOf(r.type, opts.protobuf);
    if (encoding !== undefined) return { encoding, pretty };
  }
  return undefined;
}

/** Content types accepted in request bodies, by verb. */
export type BodyType =
  | "json"
  | "yaml"
  | "protobuf"
  | "json-patch"
  | "merge-patch"
  | "strategic-merge-patch"
  | "apply";

export function bodyTypeOf(contentType: string | undefined): BodyType | undefined {
  const base = mediaTypeOf(contentType ?? JSON_MEDIA_TYPE);
  switch (base) {
    case "":
    case JSON_MEDIA_TYPE:
      return "json";
    case YAML_MEDIA_TYPE:
      return "yaml";
    case PROTOBUF_MEDIA_TYPE:
      return "protobuf";
    case JSON_PATCH_MEDIA_TYPE:
      return "json-patch";
    case MERGE_PATCH_MEDIA_TYPE:
      return "merge-patch";
    case STRATEGIC_MERGE_PATCH_MEDIA_TYPE:
      return "strategic-merge-patch";
    case APPLY_PATCH_MEDIA_TYPE:
    case APPLY_PATCH_CBOR_MEDIA_TYPE:
      return base === APPLY_PATCH_MEDIA_TYPE ? "apply" : undefined;
    default:
      return undefined;
  }
}
