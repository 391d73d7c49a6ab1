import {
  apiVersionOf,
  JSON_MEDIA_TYPE,
  type KubernetesObject,
  mediaTypeOf,
  PROTOBUF_MEDIA_TYPE,
} from "@kubesdk/models";
import type { WatchStream } from "@kubesdk/transport";
import { firstHeader, type ItemType } from "./io/body-codec.js";
import {
  type BodyPeek,
  type ClientContext,
  openWatch,
  type RequestControl,
  send,
  type WatchControl,
} from "./io/context.js";
import { earlyContinueToken } from "./io/list-continue.js";
import { earlyProtobufContinueToken } from "./io/list-continue-protobuf.js";
import { expectList } from "./io/response-shape.js";
import { ListPager, type PagingOptions } from "./list-pager.js";
import type { Representation } from "./request/media.js";
import type { GetOptions, ListOptions, WatchOptions } from "./request/options.js";
import type { RequestBuilder } from "./request/request-builder.js";

/** Hooks of one {@link ReadClient.list} call. */
export interface ListHooks {
  /**
   * Called once with the answer's continue token (never for the last page). For a page (a list with
   * `limit`): as soon as the body has arrived when it is JSON or protobuf with its metadata ahead of
   * its items (as the API server writes both), so the next page can be requested while this one is
   * decoded; otherwise after decoding. The token read early can differ from the decoded list's only
   * for a body with two `metadata` members; callers that prefetch compare it with the list's
   * `metadata.continue`. `bodyBytes` is the size of the answer's body, for sizing the next page.
   */
  readonly onContinue?: (token: string, bodyBytes: number) => void;
}

/** Options of `listAll`: a list's selection and consistency options plus paging. */
export interface ListAllOptions
  extends Omit<ListOptions, "limit" | "continue" | "timeoutSeconds">,
    PagingOptions,
    RequestControl {}

/**
 * get, list, listAll and watch in one representation (full objects or metadata only):
 * `Item` is what get and watch return, `List` what list returns.
 */
export class ReadClient<Item, List extends { items: Item[] }> {
  protected readonly context: ClientContext;
  /** The pure request builder behind this client, for inspecting or sending requests yourself. */
  readonly requests: RequestBuilder;
  readonly #representation: Representation;

  constructor(context: ClientContext, requests: RequestBuilder, representation: Representation) {
    this.context = context;
    this.requests = requests;
    this.#representation = representation;
  }

  /** Whole objects, or metadata only (PartialObjectMetadata). */
  get representation(): Representation {
    return this.#representation;
  }

  /** The kind (and apiVersion) of the items this client reads; undefined when the kind is unknown. */
  get itemType(): ItemType | undefined {
    if (this.#representation === "metadata")
      return { apiVersion: "meta.k8s.io/v1", kind: "PartialObjectMetadata" };
    const { kind } = this.requests.target;
    return kind === undefined ? undefined : { apiVersion: apiVersionOf(this.requests.target), kind };
  }

  async get(name: string, options: GetOptions & RequestControl = {}): Promise<Item> {
    const request = this.requests.get(name, { ...options, representation: this.#representation });
    return (await send(this.context, request, options)) as Item;
  }

  /**
   * One list request; with `limit`, follow `metadata.continue` yourself or use {@link listAll}. A
   * page (with `limit`) is collected whole, so that the next page can be asked for before this one
   * is decoded; a list without `limit` is decoded as it arrives when it is protobuf.
   */
  async list(options: ListOptions & RequestControl & ListHooks = {}): Promise<List> {
    const { onContinue, ...rest } = options;
    const request = this.requests.list({ ...rest, representation: this.#representation });
    let early: string | undefined;
    let bodyBytes = 0;
    const peek =
      onContinue === undefined || !((rest.limit ?? 0) > 0)
        ? undefined
        : (body: BodyPeek) => {
            bodyBytes = body.bodyBytes;
            early = earlyToken(body);
            if (early === undefined) return undefined;
            onContinue(early, bodyBytes);
            return writtenOut();
          };
    const streamed = (bytes: number) => {
      bodyBytes = bytes;
    };
    const body = await send(this.context, request, rest, { peek, streamed, itemType: this.itemType });
    const list = this.#typedItems(expectList<List>(body, `the list response of ${request.path}`));
    const token = (list as { metadata?: { continue?: unknown } }).metadata?.continue;
    if (onContinue !== undefined && early === undefined && typeof token === "string" && token !== "")
      onContinue(token, bodyBytes);
    return list;
  }

  /**
   * Every item across pages, one request per page (see {@link ListPager}). `resourceVersion` and
   * `resourceVersionMatch` apply to the first page (continue pages carry the snapshot in their
   * token) and to the full list the pager falls back to when a continue token expires.
   */
  listAll(options: ListAllOptions = {}): ListPager<Item> {
    const { pageSize, onPage, fullListOnExpired, resourceVersion, resourceVersionMatch, ...selection } =
      options;
    const snapshot = {
      ...(resourceVersion !== undefined ? { resourceVersion } : {}),
      ...(resourceVersionMatch !== undefined ? { resourceVersionMatch } : {}),
    };
    return new ListPager<Item>(
      (limit, token) =>
        this.list({
          ...selection,
          ...(token === undefined ? snapshot : { continue: token }),
          ...(limit !== undefined ? { limit } : {}),
        }),
      {
        ...(pageSize !== undefined ? { pageSize } : {}),
        ...(onPage !== undefined ? { onPage } : {}),
        ...(fullListOnExpired !== undefined ? { fullListOnExpired } : {}),
      },
    );
  }

  /**
   * Changes as an async iterator of typed events. Breaking out of `for await`, `close()` or the
   * signal closes the connection; ERROR events are thrown as ApiError (410 Expired: list again).
   * BOOKMARK objects carry only `metadata.resourceVersion`.
   */
  watch(options: WatchOptions & WatchControl = {}): WatchStream<Item> {
    const request = this.requests.watch({ ...options, representation: this.#representation });
    return openWatch<Item>(this.context, request, options);
  }

  // Items of built-in lists come without apiVersion/kind on the wire (always in protobuf, and in JSON
  // from a real server); typed callers expect them, so they are filled in. A protobuf list's decoder
  // puts them first already (see send's itemType); JSON items get them last.
  #typedItems(list: List): List {
    const type = this.itemType;
    if (type === undefined || !Array.isArray(list?.items)) return list;
    for (const item of list.items as KubernetesObject[]) {
      if (item.kind === undefined) {
        item.apiVersion = type.apiVersion;
        item.kind = type.kind;
      }
    }
    return list;
  }
}

/** The continue token read from the leading bytes of a JSON or protobuf list body. */
function earlyToken(body: BodyPeek): string | undefined {
  const type = mediaTypeOf(firstHeader(body.headers["content-type"]));
  if (type === "" || type === JSON_MEDIA_TYPE) return earlyContinueToken(body.head);
  return type === PROTOBUF_MEDIA_TYPE ? earlyProtobufContinueToken(body.head) : undefined;
}

/**
 * Two turns of the event loop: a request started by `onContinue` is on the wire before the page is
 * decoded (undici reuses a keep-alive socket only after a full turn following the last response).
 */
async function writtenOut(): Promise<void> {
  for (let turn = 0; turn < 2; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
}
