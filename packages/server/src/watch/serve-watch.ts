/**
 * Serves one WATCH request: validates options, waits for a too-new revision
 * (504), answers an expired one with the 410 ERROR event, sends initial
 * events (synthetic ADDED, or a streaming list ending in the annotated
 * bookmark), then live changes with selector transitions, bookmarks, and the
 * timeout.
 */
import type { ServerResponse } from "node:http";
import { encodeWatchEvent, JSON_MEDIA_TYPE, PROTOBUF_WATCH_MEDIA_TYPE } from "@kubesdk/models";
import { type Status, StatusError } from "../api/status.js";
import { type HandlerContext, type KubeObject, listPrefix, present } from "../handlers/context.js";
import { buildFilter } from "../handlers/filter.js";
import { waitForRevision } from "../handlers/resource-version.js";
import type { MediaChoice } from "../http/negotiate.js";
import { contentTypeFor } from "../http/respond.js";
import { renderTable } from "../http/table.js";
import { apiVersionOf, type ServedResource } from "../resources/served.js";
import type { StoredObject, StoreEvent } from "../store/mvcc.js";
import type { WatchEventType, WatchHub } from "./watch-hub.js";
import { parseWatchOptions } from "./watch-options.js";
import { type WatchEndReason, WatchStream } from "./watch-stream.js";

export interface WatchSettings {
  readonly bookmarkIntervalMs: number;
  readonly maxBufferedBytes: number;
}

export interface WatchRegistry {
  readonly hub: WatchHub;
  readonly settings: WatchSettings;
  /** Open streams, so fault controls can drop, pause or break them. */
  readonly streams: Set<OpenWatch>;
  /** Called when a watch opens (fault controls apply stalls and pauses in force). */
  onOpen?: (w: OpenWatch, path: string) => void;
}

export interface OpenWatch {
  readonly resource: ServedResource;
  readonly namespace: string | undefined;
  readonly stream: WatchStream;
}

const INITIAL_EVENTS_END = "k8s.io/initial-events-end";

export async function serveWatch(
  ctx: HandlerContext,
  reg: WatchRegistry,
  r: ServedResource,
  namespace: string | undefined,
  q: URLSearchParams,
  choice: MediaChoice,
  res: ServerResponse,
  signal: AbortSignal,
): Promise<void> {
  const opts = parseWatchOptions(q, ctx.settings.watchList);
  const filter = buildFilter(r, q);
  const prefix = listPrefix(r, namespace);
  const rv = opts.resourceVersion;
  // A plain watch from a revision the server has not reached just waits for it (upstream: 200 and
  // silence); a streaming list needs that state now, so it waits briefly, then fails (below).
  let tooLarge: StatusError | undefined;
  if (rv !== undefined && rv > ctx.store.revision && opts.sendInitialEvents === true) {
    try {
      await waitForRevision(ctx, rv, signal);
    } catch (e) {
      if (!(e instanceof StatusError)) throw e;
      tooLarge = e;
    }
  }

  const apiVersion = apiVersionOf(r);
  let first = true;
  const encode = (type: WatchEventType, obj: unknown): Buffer => {
    let object = obj;
    if (choice.shape === "Table" && type !== "ERROR" && type !== "BOOKMARK") {
      object = renderTable(r, [obj as KubeObject], {}, "Metadata", choice.shapeVersion ?? "v1", first);
      first = false;
    } else if (choice.shape === "PartialObjectMetadata" && type !== "ERROR") {
      const o = obj as KubeObject;
      object = {
        kind: "PartialObjectMetadata",
        apiVersion: `meta.k8s.io/${choice.shapeVersion ?? "v1"}`,
        metadata: o.metadata,
      };
    }
    if (choice.encoding === "protobuf") {
      // Length-framed: 4-byte big-endian size, then a meta.v1.WatchEvent holding the enveloped object.
      const body = encodeWatchEvent({ type, object: object as object });
      const frame = Buffer.allocUnsafe(4 + body.length);
      frame.writeUInt32BE(body.length, 0);
      frame.set(body, 4);
      return frame;
    }
    return Buffer.from(`${JSON.stringify({ type, object })}\n`);
  };

  res.writeHead(200, {
    "Content-Type":
      choice.encoding === "protobuf"
        ? PROTOBUF_WATCH_MEDIA_TYPE
        : choice.shape
          ? contentTypeFor(choice)
          : JSON_MEDIA_TYPE,
    "Cache-Control": "no-cache, private",
    "Transfer-Encoding": "chunked",
  });
  res.flushHeaders();

  let unregister = () => {};
  const timers: NodeJS.Timeout[] = [];
  const stream = new WatchStream(res, {
    maxBufferedBytes: reg.settings.maxBufferedBytes,
    onClose: (_reason: WatchEndReason) => {
      unregister();
      for (const t of timers) clearTimeout(t);
      reg.streams.delete(open);
    },
  });
  const open: OpenWatch = { resource: r, namespace, stream };
  reg.streams.add(open);
  reg.onOpen?.(open, "");

  if (tooLarge) {
    stream.write(encode("ERROR", tooLarge.status));
    stream.end("expired");
    return;
  }

  // Expired: one ERROR event with the 410 Status, then the end of the stream.
  if (rv !== undefined && rv > 0 && rv < ctx.store.compactedRevision) {
    const status: Status = {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: `too old resource version: ${rv} (${ctx.store.compactedRevision})`,
      reason: "Expired",
      code: 410,
    };
    stream.write(encode("ERROR", status));
    stream.end("expired");
    return;
  }

  const inScope = (obj: StoredObject | null): boolean => obj !== null && filter.matches(obj);
  const matchesKey = (key: string) => key.startsWith(prefix);
  const after = rv !== undefined && rv > 0 ? rv : 0;
  const sendEvent = (e: StoreEvent) => {
    if (e.rev <= after || !matchesKey(e.key)) return;
    let type: WatchEventType;
    if (e.type === "ADDED") {
      if (!inScope(e.object)) return;
      type = "ADDED";
    } else if (e.type === "DELETED") {
      if (!inScope(e.object)) return;
      type = "DELETED";
    } else {
      const was = inScope(e.prev);
      const is = inScope(e.object);
      if (!was && !is) return;
      type = was && is ? "MODIFIED" : is ? "ADDED" : "DELETED";
    }
    // An object leaving the selector goes out as its last matching state, stamped with this revision.
    const leaving = type === "DELETED" && e.type === "MODIFIED" && e.prev !== null;
    const object = (): StoredObject =>
      leaving
        ? {
            ...(e.prev as StoredObject),
            metadata: { ...(e.prev as StoredObject).metadata, resourceVersion: String(e.rev) },
          }
        : e.object;
    const frame =
      choice.shape !== "Table"
        ? reg.hub.frame(e, `${type}|${apiVersion}|${choice.encoding}|${choice.shape ?? ""}`, () =>
            encode(type, present(r, object())),
          )
        : encode(type, present(r, object()));
    stream.write(frame);
  };
  const bookmark = (annotate: boolean) => {
    const metadata: Record<string, unknown> = { resourceVersion: String(ctx.store.revision) };
    if (annotate) metadata.annotations = { [INITIAL_EVENTS_END]: "true" };
    stream.write(encode("BOOKMARK", { kind: r.kind, apiVersion, metadata }));
  };

  // Register for live events before reading the initial state: nothing runs in between, so
  // no event can fall between the two.
  unregister = reg.hub.add({ bucket: r.bucket, onEvent: sendEvent });
  const initial =
    opts.sendInitialEvents === true ||
    (opts.sendInitialEvents === undefined && (rv === undefined || rv === 0));
  if (initial) {
    const items = ctx.store.list(r.bucket, {
      prefix,
      filter: filter.empty ? undefined : filter.matches,
    } as Parameters<typeof ctx.store.list>[1]).items;
    for (const obj of items) stream.write(encode("ADDED", present(r, obj)));
    if (opts.sendInitialEvents === true && opts.allowBookmarks) bookmark(true);
  } else if (rv !== undefined && rv > 0) {
    for (const e of ctx.store.eventsSince(rv)) if (e.bucket === r.bucket) sendEvent(e);
  }

  const timeoutMs = opts.timeoutSeconds * 1000;
  timers.push(setTimeout(() => stream.end("timeout"), timeoutMs));
  if (opts.allowBookmarks) {
    const interval = setInterval(() => bookmark(false), reg.settings.bookmarkIntervalMs);
    timers.push(interval);
    const lead = Math.min(2000, timeoutMs / 2);
    timers.push(setTimeout(() => bookmark(false), timeoutMs - lead));
  }
  for (const t of timers) t.unref?.();
  if (signal.aborted) stream.end("client-closed");
}
