import type { ApplyConfiguration, ApplyResult } from "@kubesdk/apply";
import type { GroupVersionKind, KubernetesObject } from "@kubesdk/models";
import { type ApplyOptions, applyObject } from "./apply-call.js";
import { type ClientContext, type RequestControl, send, sendObject } from "./io/context.js";
import type { GetOptions, PatchOptions, ReplaceOptions } from "./request/options.js";
import type { Patch } from "./request/patch.js";
import type { RequestBuilder } from "./request/request-builder.js";

/** get / replace / patch / apply of one subresource (`status`, `scale`) whose objects are `S`. */
export class SubresourceClient<S extends KubernetesObject> {
  readonly #context: ClientContext;
  readonly #requests: RequestBuilder;
  readonly #name: string;
  readonly #kind: GroupVersionKind;

  /** @internal Created by `ResourceClient.status` / `.scale`. */
  constructor(context: ClientContext, requests: RequestBuilder, name: string, kind: GroupVersionKind) {
    this.#context = context;
    this.#requests = requests;
    this.#name = name;
    this.#kind = kind;
  }

  async get(name: string, options: GetOptions & RequestControl = {}): Promise<S> {
    const request = this.#requests.get(name, { ...options, subresource: this.#name });
    return (await send(this.#context, request, options)) as S;
  }

  /** Replaces the subresource of the object named by `metadata.name`. */
  async replace(object: S, options: ReplaceOptions & RequestControl = {}): Promise<S> {
    const request = this.#requests.replace(object, { ...options, subresource: this.#name });
    const protobuf = this.#requests.encoding === "protobuf";
    return (await sendObject(this.#context, request, this.#kind, protobuf, options)) as S;
  }

  async patch(name: string, patch: Patch<S>, options: PatchOptions & RequestControl = {}): Promise<S> {
    const request = this.#requests.patch(name, patch as Patch<unknown>, {
      ...options,
      subresource: this.#name,
    });
    return (await send(this.#context, request, options)) as S;
  }

  /** Server-side apply to the subresource (e.g. a controller owning its status fields); see `ResourceClient.apply`. */
  async apply(config: ApplyConfiguration<S>, options: Omit<ApplyOptions, "subresource">): Promise<S> {
    return (await this.applyWithResult(config, options)).object;
  }

  /** Like {@link apply}, also telling which conflicting fields were left to their owners under "yield". */
  applyWithResult(
    config: ApplyConfiguration<S>,
    options: Omit<ApplyOptions, "subresource">,
  ): Promise<ApplyResult<S>> {
    return applyObject<S>(this.#context, this.#requests, config, { ...options, subresource: this.#name });
  }
}
