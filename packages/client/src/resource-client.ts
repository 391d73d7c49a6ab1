import type { ApplyConfiguration, ApplyConflictError, ApplyResult } from "@kubesdk/apply";
// A `Status` may be returned instead of an object (e.g. by a delete that completed at once).
import type {
  autoscalingV1,
  GroupVersionKind,
  KubernetesList,
  KubernetesObject,
  metaV1,
  Status,
} from "@kubesdk/models";
import type { ApiRequest } from "@kubesdk/transport";
import { type ApplyOptions, applyObject } from "./apply-call.js";
import { ClientError } from "./errors.js";
import { type ClientContext, type RequestControl, send, sendObject } from "./io/context.js";
import { ReadClient } from "./read-client.js";
import type { Encoding } from "./request/media.js";
import type {
  CreateOptions,
  DeleteCollectionOptions,
  DeleteOptions,
  PatchOptions,
  ReplaceOptions,
} from "./request/options.js";
import type { Patch } from "./request/patch.js";
import { RequestBuilder } from "./request/request-builder.js";
import type { ResourceTarget } from "./resource-target.js";
import { SubresourceClient } from "./subresource-client.js";
import { TableClient, type TableOptions } from "./table-client.js";

export type { Status };

/** True when a delete answered with a Status rather than the (still present) object. */
export function isStatus(value: unknown): value is Status {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "Status";
}

const SCALE_KIND: GroupVersionKind = { group: "autoscaling", version: "v1", kind: "Scale" };

/**
 * A typed client for one resource: `T` is the object type, `L` its list type. Namespaced calls
 * use the client's default namespace unless `namespace` (or `allNamespaces`) is given.
 */
export class ResourceClient<
  T extends KubernetesObject = KubernetesObject,
  L extends KubernetesList<T> = KubernetesList<T>,
> extends ReadClient<T, L> {
  readonly target: ResourceTarget;

  constructor(context: ClientContext, target: ResourceTarget) {
    // Only kinds compiled into kube-apiserver have a protobuf form.
    const protobuf = context.protobuf && target.builtin;
    super(
      context,
      new RequestBuilder(target, {
        defaultNamespace: context.defaultNamespace,
        encoding: protobuf ? "protobuf" : "json",
      }),
      "object",
    );
    this.target = target;
  }

  /**
   * The same resource over another encoding: "protobuf" asks for protobuf (built-in kinds only;
   * custom resources stay JSON), "json" for JSON whatever the client was created with.
   */
  withEncoding(encoding: Encoding): ResourceClient<T, L> {
    if (encoding !== "json" && encoding !== "protobuf")
      throw new ClientError(
        "INVALID_OPTION",
        `encoding must be "json" or "protobuf", got ${String(encoding)}`,
      );
    if (encoding === "protobuf" && !this.protobufAvailable)
      throw new ClientError(
        "PROTOBUF_UNSUPPORTED",
        'protobuf needs a protobufCodec on the client: import { protobufCodec } from "kubesdk/protobuf"',
      );
    return new ResourceClient<T, L>(
      { ...this.context, protobuf: encoding === "protobuf", encodingChosen: true },
      this.target,
    );
  }

  /**
   * The encoding chosen for this client — by the Kube's `protobuf` option or by
   * {@link withEncoding} — or undefined when it was left to the default (JSON for requests).
   */
  /** Whether the client has a protobuf codec (its `protobufCodec` option), so "protobuf" can be chosen. */
  get protobufAvailable(): boolean {
    return this.context.codec.protobuf !== undefined;
  }

  get chosenEncoding(): Encoding | undefined {
    if (!this.context.encodingChosen) return undefined;
    return this.context.protobuf ? "protobuf" : "json";
  }

  /** Creates the object (its namespace: `options.namespace`, else `metadata.namespace`, else the default). */
  async create(object: T, options: CreateOptions & RequestControl = {}): Promise<T> {
    return (await this.#write(this.requests.create(object, options), options)) as T;
  }

  /** Replaces the object named by `metadata.name`; `metadata.resourceVersion` guards against lost updates. */
  async replace(object: T, options: ReplaceOptions & RequestControl = {}): Promise<T> {
    return (await this.#write(this.requests.replace(object, options), options)) as T;
  }

  async patch(name: string, patch: Patch<T>, options: PatchOptions & RequestControl = {}): Promise<T> {
    return (await send(
      this.context,
      this.requests.patch(name, patch as Patch<unknown>, options),
      options,
    )) as T;
  }

  /**
   * Server-side apply of `config` (named by its `metadata.name`) as `options.fieldManager`. A field
   * another manager owns fails the apply with an {@link ApplyConflictError} listing the conflicts,
   * unless `conflicts` is "force" (take them) or "yield" (apply the rest; see {@link applyWithResult}
   * for what was left). `subresource: "status"` applies to the status, like `status.apply`.
   */
  async apply(config: ApplyConfiguration<T>, options: ApplyOptions): Promise<T> {
    return (await this.applyWithResult(config, options)).object;
  }

  /** Like {@link apply}, also telling which conflicting fields were left to their owners under "yield". */
  applyWithResult(config: ApplyConfiguration<T>, options: ApplyOptions): Promise<ApplyResult<T>> {
    return applyObject<T>(this.context, this.requests, config, options);
  }

  /**
   * Deletes the object. The answer is the object when it stays around for now (finalizers, graceful
   * deletion), else a success Status (see {@link isStatus}).
   */
  async delete(name: string, options: DeleteOptions & RequestControl = {}): Promise<T | Status> {
    return (await send(this.context, this.requests.delete(name, options), options)) as T | Status;
  }

  /** Deletes every object matching the selectors; the answer lists what was deleted (or is a Status). */
  async deleteCollection(options: DeleteCollectionOptions & RequestControl = {}): Promise<L | Status> {
    return (await send(this.context, this.requests.deleteCollection(options), options)) as L | Status;
  }

  /** The `status` subresource: read and write only the status. */
  get status(): SubresourceClient<T> {
    return new SubresourceClient<T>(this.context, this.requests, "status", this.#kind());
  }

  /** The `scale` subresource (autoscaling/v1 Scale) of workloads such as Deployments. */
  get scale(): SubresourceClient<autoscalingV1.Scale> {
    return new SubresourceClient<autoscalingV1.Scale>(this.context, this.requests, "scale", SCALE_KIND);
  }

  /** Server-rendered tables (`kubectl get` columns) instead of objects. */
  asTable(options: TableOptions = {}): TableClient {
    return new TableClient(this.context, this.requests, options);
  }

  /** Metadata only (PartialObjectMetadata): cheap reads when only names, labels or owners matter. */
  metadataOnly(): ReadClient<metaV1.PartialObjectMetadata, metaV1.PartialObjectMetadataList> {
    return new ReadClient(this.context, this.requests, "metadata");
  }

  #write(request: ApiRequest, control: RequestControl): Promise<unknown> {
    return sendObject(this.context, request, this.#kind(), this.requests.encoding === "protobuf", control);
  }

  #kind(): GroupVersionKind {
    return { group: this.target.group, version: this.target.version, kind: this.target.kind ?? "" };
  }
}
