/**
 * Watch framing: how one watch event goes on the wire for the negotiated
 * representation. JSON is one `{"type","object"}` line per event; protobuf is
 * a 4-byte big-endian length, then a meta.v1.WatchEvent (the models' event
 * encoding); Table and PartialObjectMetadata watches reshape the object first.
 */
import { encodeWatchEvent } from "@kubesdk/models";
import type { KubeObject } from "../endpoints/handlers/context.js";
import { renderTable } from "../endpoints/table.js";
import type { MediaChoice } from "../http/negotiate.js";
import { contentTypeFor } from "../http/respond.js";
import type { ServedResource } from "../resources/served.js";
import { committedText } from "../storage/object-text.js";
import { JSON_TAIL, JSON_TAIL_TEXT, jsonHead, jsonHeadText } from "./frame-log.js";
import type { FrameJoin } from "./replay-frames.js";
import type { WatchEventType } from "./watch-hub.js";

/** The Content-Type of a watch response. */
export function watchContentType(choice: MediaChoice): string {
  if (choice.encoding === "protobuf") return "application/vnd.kubernetes.protobuf;stream=watch";
  return choice.shape ? contentTypeFor(choice) : "application/json";
}

/** A length-framed protobuf watch event: 4-byte big-endian size, then the WatchEvent. */
export function protobufFrame(type: WatchEventType, object: object): Buffer {
  const body = encodeWatchEvent({ type, object });
  const frame = Buffer.allocUnsafe(4 + body.length);
  frame.writeUInt32BE(body.length, 0);
  frame.set(body, 4);
  return frame;
}

/** A newline-delimited JSON watch event. */
export function jsonFrame(type: WatchEventType, object: unknown): Buffer {
  // A just-committed object's text was made by its commit (storage/object-text.ts).
  const known = committedText(object);
  if (known !== undefined) return Buffer.from(`${jsonHeadText(type)}${known.text}${JSON_TAIL_TEXT}`);
  return Buffer.from(`${JSON.stringify({ type, object })}\n`);
}

/** Encodes the events of one watch; a Table watch sends column definitions with its first row only. */
export class WatchEncoder {
  private first = true;

  constructor(
    private readonly resource: ServedResource,
    private readonly choice: MediaChoice,
  ) {}

  /** A key naming this encoding, for sharing frames between watches that encode alike (not Tables). */
  get shareKey(): string | undefined {
    if (this.choice.shape === "Table") return undefined;
    return `${this.choice.encoding}|${this.choice.shape ?? ""}`;
  }

  /** Frames are jsonFrame's (JSON, objects as they are): a replay may take them from the frame log. */
  get plainJson(): boolean {
    return this.choice.encoding !== "protobuf" && this.choice.shape === undefined;
  }

  /** `stored`: the object as stored, which a Table of a version stored as another prints. */
  encode(type: WatchEventType, obj: unknown, stored?: unknown): Buffer {
    const object = this.reshape(type, obj, stored);
    return this.choice.encoding === "protobuf"
      ? protobufFrame(type, object as object)
      : jsonFrame(type, object);
  }

  /**
   * Adds encode's frame to a replay's join when it is a JSON frame of an object whose text was kept
   * from its write (storage/object-text.ts): the text is copied once, into the join, and nothing is
   * encoded. False, and nothing added, otherwise.
   */
  joinKept(join: FrameJoin, type: WatchEventType, obj: unknown): boolean {
    if (!this.plainJson) return false;
    const known = committedText(obj);
    if (known === undefined) return false;
    join.wrapped(jsonHead(type), known.text, known.bytes, JSON_TAIL);
    return true;
  }

  private reshape(type: WatchEventType, obj: unknown, stored: unknown): unknown {
    const shapeVersion = this.choice.shapeVersion ?? "v1";
    if (this.choice.shape === "Table" && type !== "ERROR" && type !== "BOOKMARK") {
      const storedOf = stored === undefined ? undefined : () => stored as KubeObject;
      const objects = [obj as KubeObject];
      const table = renderTable(this.resource, objects, {}, "Metadata", shapeVersion, this.first, storedOf);
      this.first = false;
      return table;
    }
    if (this.choice.shape === "PartialObjectMetadata" && type !== "ERROR")
      return {
        kind: "PartialObjectMetadata",
        apiVersion: `meta.k8s.io/${shapeVersion}`,
        metadata: (obj as KubeObject).metadata,
      };
    return obj;
  }
}
