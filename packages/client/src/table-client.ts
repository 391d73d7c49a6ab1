import type { metaV1 } from "@kubesdk/models";
import { ClientError } from "./errors.js";
import { type ClientContext, type RequestControl, send } from "./io/context.js";
import type { GetOptions, ListOptions } from "./request/options.js";
import type { ReadOptions, RequestBuilder } from "./request/request-builder.js";

/** What each row carries besides its cells: nothing, the object's metadata (default), or the whole object. */
export type IncludeObject = NonNullable<ReadOptions["includeObject"]>;

export interface TableOptions {
  readonly includeObject?: IncludeObject;
}

/** Server-rendered tables (the columns `kubectl get` prints) of one resource. */
export class TableClient {
  readonly #context: ClientContext;
  readonly #requests: RequestBuilder;
  readonly #read: ReadOptions;

  /** @internal Created by `ResourceClient.asTable()`. */
  constructor(context: ClientContext, requests: RequestBuilder, options: TableOptions) {
    this.#context = context;
    this.#requests = requests;
    this.#read = {
      representation: "table",
      ...(options.includeObject !== undefined ? { includeObject: options.includeObject } : {}),
    };
  }

  /** A one-row table of one object. */
  async get(name: string, options: GetOptions & RequestControl = {}): Promise<metaV1.Table> {
    const request = this.#requests.get(name, { ...options, ...this.#read });
    return this.#table(await send(this.#context, request, options));
  }

  /** A table of the collection (one page when `limit` is given; `metadata.continue` fetches the next). */
  async list(options: ListOptions & RequestControl = {}): Promise<metaV1.Table> {
    const request = this.#requests.list({ ...options, ...this.#read });
    return this.#table(await send(this.#context, request, options));
  }

  #table(body: unknown): metaV1.Table {
    if ((body as { kind?: unknown })?.kind !== "Table") {
      throw new ClientError("UNEXPECTED_RESPONSE", "asked for a Table but the server sent something else");
    }
    return body as metaV1.Table;
  }
}
