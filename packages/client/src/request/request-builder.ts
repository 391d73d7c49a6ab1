import type { KubernetesObject } from "@kubesdk/models";
import type { ApiRequest } from "@kubesdk/transport";
import { ClientError } from "../errors.js";
import type { ResourceTarget } from "../resource-target.js";
import { acceptFor, type Encoding, JSON_MEDIA_TYPE, type Representation } from "./media.js";
import {
  type CreateOptions,
  type DeleteCollectionOptions,
  type DeleteOptions,
  deleteParts,
  type GetOptions,
  type ListOptions,
  listQuery,
  type NamespaceOption,
  type PatchOptions,
  patchQuery,
  type ReplaceOptions,
  type SelectionOptions,
  type WatchOptions,
  watchQuery,
  writeQuery,
} from "./options.js";
import { PATCH_CONTENT_TYPES, type Patch, patchBody } from "./patch.js";
import { namespaceNotAllowed, ResourcePaths } from "./paths.js";

/** Kubernetes verbs, as discovery names them. */
export type Verb = "get" | "list" | "watch" | "create" | "update" | "patch" | "delete" | "deletecollection";

/** Addresses a subresource (`status`, `scale`, …) instead of the object itself. */
export interface SubresourceOption {
  readonly subresource?: string;
}

/** How reads are represented on the wire. */
export interface ReadOptions {
  readonly representation?: Representation;
  /** Tables only: what each row carries besides its cells (server default: Metadata). */
  readonly includeObject?: "None" | "Metadata" | "Object";
}

function checkBody(body: unknown, verb: string): void {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ClientError(
      "INVALID_OPTION",
      `the object to ${verb} must be an object, got ${body === null ? "null" : typeof body}`,
    );
  }
}

function readQuery(options: ReadOptions): { includeObject?: string } {
  if (options.includeObject === undefined) return {};
  if (options.representation !== "table") {
    throw new ClientError("INVALID_OPTION", "includeObject only applies to Table requests");
  }
  return { includeObject: options.includeObject };
}

/** One request described as data: which verb on which object, with which options. */
export type RequestSpec =
  | {
      readonly verb: "get";
      readonly name: string;
      readonly options?: GetOptions & SubresourceOption & ReadOptions;
    }
  | { readonly verb: "list"; readonly options?: ListOptions & ReadOptions }
  | { readonly verb: "watch"; readonly options?: WatchOptions & ReadOptions }
  | {
      readonly verb: "create";
      readonly body: KubernetesObject;
      readonly options?: CreateOptions & SubresourceOption;
    }
  | {
      readonly verb: "update";
      readonly body: KubernetesObject;
      readonly name?: string;
      readonly options?: ReplaceOptions & SubresourceOption;
    }
  | {
      readonly verb: "patch";
      readonly name: string;
      readonly patch: Patch<unknown>;
      readonly options?: PatchOptions & SubresourceOption;
    }
  | { readonly verb: "delete"; readonly name: string; readonly options?: DeleteOptions }
  | { readonly verb: "deletecollection"; readonly options?: DeleteCollectionOptions };

export interface RequestBuilderOptions {
  /** Namespace for namespaced resources when a call names none (the kubeconfig context's). */
  readonly defaultNamespace?: string;
  /** Response encoding to ask for (default JSON). */
  readonly encoding?: Encoding;
}

/**
 * Pure request building for one resource (no I/O): turns a verb, a name, a namespace and options
 * into an {@link ApiRequest} with the path, query, Accept and body the API expects.
 */
export class RequestBuilder {
  readonly target: ResourceTarget;
  readonly paths: ResourcePaths;
  readonly defaultNamespace: string | undefined;
  readonly encoding: Encoding;

  constructor(target: ResourceTarget, options: RequestBuilderOptions = {}) {
    this.target = target;
    this.paths = new ResourcePaths(target);
    this.defaultNamespace = options.defaultNamespace;
    this.encoding = options.encoding ?? "json";
  }

  /** Any request described as data. */
  build(spec: RequestSpec): ApiRequest {
    switch (spec.verb) {
      case "get":
        return this.get(spec.name, spec.options);
      case "list":
        return this.list(spec.options);
      case "watch":
        return this.watch(spec.options);
      case "create":
        return this.create(spec.body, spec.options);
      case "update":
        return this.replace(spec.body, {
          ...spec.options,
          ...(spec.name !== undefined ? { name: spec.name } : {}),
        });
      case "patch":
        return this.patch(spec.name, spec.patch, spec.options);
      case "delete":
        return this.delete(spec.name, spec.options);
      case "deletecollection":
        return this.deleteCollection(spec.options);
      default:
        throw new ClientError(
          "INVALID_OPTION",
          `unknown verb ${JSON.stringify((spec as { verb: unknown }).verb)}`,
        );
    }
  }

  get(name: string, options: GetOptions & SubresourceOption & ReadOptions = {}): ApiRequest {
    this.#check("get", options.subresource);
    return {
      method: "GET",
      path: this.paths.object(name, this.#namespace(options), options.subresource),
      query: { resourceVersion: options.resourceVersion, ...readQuery(options) },
      accept: acceptFor(options.representation ?? "object", this.encoding, false),
    };
  }

  list(options: ListOptions & ReadOptions = {}): ApiRequest {
    return this.#collectionRead("list", options, { ...listQuery(options), ...readQuery(options) });
  }

  watch(options: WatchOptions & ReadOptions = {}): ApiRequest {
    return this.#collectionRead("watch", options, watchQuery(options));
  }

  create(body: KubernetesObject, options: CreateOptions & SubresourceOption = {}): ApiRequest {
    this.#check("create", options.subresource);
    checkBody(body, "create");
    const objectNamespace = body.metadata?.namespace;
    const namespace = this.#namespace(options, objectNamespace);
    // A create on a subresource (e.g. pods/eviction, serviceaccounts/token) is a POST to the object's URL.
    const path =
      options.subresource === undefined
        ? this.paths.collection(namespace)
        : this.paths.object(this.#nameOf(body), namespace, options.subresource);
    return this.#write("POST", path, writeQuery(options), body);
  }

  /** PUT of a whole object; the name comes from `options.name` or `metadata.name`. */
  replace(
    body: KubernetesObject,
    options: ReplaceOptions & SubresourceOption & { readonly name?: string } = {},
  ): ApiRequest {
    this.#check("update", options.subresource);
    checkBody(body, "replace");
    const name = options.name ?? this.#nameOf(body);
    const namespace = this.#namespace(options, body.metadata?.namespace);
    return this.#write(
      "PUT",
      this.paths.object(name, namespace, options.subresource),
      writeQuery(options),
      body,
    );
  }

  patch(name: string, patch: Patch<unknown>, options: PatchOptions & SubresourceOption = {}): ApiRequest {
    this.#check("patch", options.subresource);
    const contentType = PATCH_CONTENT_TYPES[patch?.type];
    if (contentType === undefined) {
      throw new ClientError("INVALID_OPTION", `unknown patch type ${JSON.stringify(patch?.type)}`);
    }
    if (patch.type === "apply" && (options.fieldManager === undefined || options.fieldManager === "")) {
      throw new ClientError("INVALID_OPTION", "server-side apply needs a fieldManager");
    }
    if (options.force === true && patch.type !== "apply") {
      throw new ClientError("INVALID_OPTION", `force is only valid for apply patches, not ${patch.type}`);
    }
    if (patch.type === "strategic" && !this.target.builtin) {
      throw new ClientError(
        "STRATEGIC_MERGE_UNSUPPORTED",
        `strategic merge patch is not supported for ${this.target.plural}.${this.target.group}: use a merge, JSON or apply patch`,
      );
    }
    return {
      method: "PATCH",
      path: this.paths.object(name, this.#namespace(options), options.subresource),
      query: patchQuery(options),
      body: patchBody(patch),
      contentType,
      accept: acceptFor("object", this.encoding, false),
    };
  }

  delete(name: string, options: DeleteOptions = {}): ApiRequest {
    this.#check("delete");
    const { query, body } = deleteParts(options);
    return {
      method: "DELETE",
      path: this.paths.object(name, this.#namespace(options)),
      query,
      ...(body !== undefined ? { body, contentType: JSON_MEDIA_TYPE } : {}),
      accept: acceptFor("object", this.encoding, false),
    };
  }

  deleteCollection(options: DeleteCollectionOptions = {}): ApiRequest {
    this.#check("deletecollection");
    const { query, body } = deleteParts(options);
    return {
      method: "DELETE",
      path: this.paths.collection(this.#selectionNamespace(options)),
      query: { ...listQuery(options), ...query },
      ...(body !== undefined ? { body, contentType: JSON_MEDIA_TYPE } : {}),
      accept: acceptFor("object", this.encoding, true),
    };
  }

  // A GET of the collection. Watch events carry single objects, so a metadata-only watch asks for
  // PartialObjectMetadata where a list asks for PartialObjectMetadataList.
  #collectionRead(
    verb: "list" | "watch",
    options: SelectionOptions & ReadOptions,
    query: ApiRequest["query"],
  ): ApiRequest {
    this.#check(verb);
    return {
      method: "GET",
      path: this.paths.collection(this.#selectionNamespace(options)),
      query,
      accept: acceptFor(options.representation ?? "object", this.encoding, verb === "list"),
    };
  }

  #write(
    method: "POST" | "PUT",
    path: string,
    query: ApiRequest["query"],
    body: KubernetesObject,
  ): ApiRequest {
    return {
      method,
      path,
      query,
      body,
      contentType: JSON_MEDIA_TYPE,
      accept: acceptFor("object", this.encoding, false),
    };
  }

  #nameOf(body: KubernetesObject): string {
    const name = body?.metadata?.name;
    if (typeof name !== "string" || name === "") {
      throw new ClientError("MISSING_NAME", `the ${this.target.kind ?? "object"} has no metadata.name`);
    }
    return name;
  }

  // The namespace of a single-object request: explicit, else the object's, else the default.
  #namespace(options: NamespaceOption, fromObject?: string): string | undefined {
    if (!this.target.namespaced) {
      if (options.namespace !== undefined) throw namespaceNotAllowed(this.target, options.namespace);
      return undefined;
    }
    const namespace = options.namespace ?? fromObject ?? this.defaultNamespace;
    if (namespace === undefined) {
      throw new ClientError(
        "MISSING_NAMESPACE",
        `${this.target.plural} is namespaced: give a namespace or configure a default namespace`,
      );
    }
    return namespace;
  }

  #selectionNamespace(options: SelectionOptions): string | undefined {
    if (options.allNamespaces !== true) return this.#namespace(options);
    if (options.namespace !== undefined) {
      throw new ClientError("INVALID_OPTION", "allNamespaces and namespace cannot be combined");
    }
    return undefined;
  }

  #check(verb: Verb, subresource?: string): void {
    const { target } = this;
    if (subresource !== undefined) {
      if (target.subresources !== undefined && !target.subresources.includes(subresource)) {
        throw new ClientError(
          "UNSUPPORTED_OPERATION",
          `${target.plural} has no ${JSON.stringify(subresource)} subresource`,
        );
      }
      return;
    }
    if (target.verbs !== undefined && !target.verbs.includes(verb)) {
      throw new ClientError("UNSUPPORTED_OPERATION", `${target.plural} does not support ${verb}`);
    }
  }
}
