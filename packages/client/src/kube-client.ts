import {
  builtinGroups,
  registry as builtinRegistry,
  type Int64Mode,
  type KubernetesList,
  type KubernetesObject,
  parseApiVersion,
  type ResourceInfo,
  type ResourceRegistry,
} from "@kubesdk/models";
import {
  type ClusterConnection,
  createTransport,
  type HttpTransport,
  type LoadConnectionOptions,
  loadClusterConnection,
  type TransportOptions,
} from "@kubesdk/transport";
import { DefinedResourceClient } from "./custom-resources/defined-client.js";
import type {
  CustomResourceDefinitionOf,
  CustomResourceOf,
  StorageVersionOf,
} from "./custom-resources/definition.js";
import { Discovery } from "./discovery/discovery.js";
import { ClientError } from "./errors.js";
import { BodyCodec, type ProtobufCodec } from "./io/body-codec.js";
import type { ClientContext, RequestControl } from "./io/context.js";
import type { ApiWarning } from "./io/warnings.js";
import type { BuiltinApiVersion, BuiltinList, BuiltinObject, BuiltinResourceKind } from "./kinds.js";
import {
  AccessReviews,
  createServiceAccountToken,
  MetricsClient,
  type TokenOptions,
} from "./pods/cluster-tools.js";
import { PodOperations } from "./pods/pod-operations.js";
import type { ReadClient } from "./read-client.js";
import { ResourceClient } from "./resource-client.js";
import { type ResourceTarget, targetOf } from "./resource-target.js";
import type { NoInferFrom, WaitCondition } from "./wait/conditions.js";
import { type WaitOptions, waitFor } from "./wait/wait-for.js";

/** A resource the client has no generated types for (a CRD's, or any resource addressed by name). */
export interface CustomResource {
  /** API group, e.g. "stable.example.com" ("" for the core group). */
  readonly group: string;
  readonly version: string;
  /** Plural resource name used in URLs, e.g. "crontabs". */
  readonly plural: string;
  readonly namespaced: boolean;
  /** The kind, used to fill in list items' apiVersion/kind. */
  readonly kind?: string;
  /** Subresources the resource serves (e.g. ["status", "scale"]); leave out to allow any. */
  readonly subresources?: readonly string[];
}

/** An object of a kind the client has no type for: any fields besides apiVersion, kind and metadata. */
export type DynamicObject = KubernetesObject & { [field: string]: unknown };

/** How to reach a resource through discovery: by apiVersion and kind, or by a kubectl-style name. */
export type DiscoveryReference = { readonly apiVersion: string; readonly kind: string } | string;

export interface KubeClientOptions {
  /** Default namespace for namespaced calls (default: the kubeconfig context's, else "default"). */
  readonly namespace?: string;
  /**
   * Ask for protobuf for built-in kinds (`Accept: application/vnd.kubernetes.protobuf,
   * application/json`; responses are decoded by their Content-Type) and send protobuf bodies on
   * create/replace; needs `protobufCodec`. Custom resources and Tables stay JSON. Unset: requests
   * are JSON, informers use protobuf for built-in kinds when there is a `protobufCodec` (see the
   * informer option `encoding`); false: JSON everywhere.
   */
  readonly protobuf?: boolean;
  /**
   * Encodes and decodes protobuf bodies and watch frames: `protobufCodec` from `kubesdk/protobuf`
   * (or `@kubesdk/client/protobuf`). None by default, so that a program that never speaks protobuf
   * does not carry the generated codec; without one, everything is JSON.
   */
  readonly protobufCodec?: ProtobufCodec;
  /**
   * How protobuf responses and watch events give an int64 beyond ±(2^53 − 1) (a generation, a
   * user id, a quota): "number" (the default) fails the call with a WireError PROTOBUF_INT64
   * rather than round it; "bigint" and "string" give it exactly. Values within the safe range are
   * numbers in every mode. Applies to a `protobufCodec` that has `withInt64` (the built-in one does).
   */
  readonly int64?: Int64Mode;
  /** Receives the server's Warning headers (deprecations, dropped fields under fieldValidation=Warn). */
  readonly onWarning?: (warning: ApiWarning) => void;
  /** Registry typed clients are resolved from (default: the built-in resources of the pinned release). */
  readonly registry?: ResourceRegistry;
}

export interface CreateClientOptions extends KubeClientOptions {
  /** Options of the HTTP transport (timeouts, retries, user agent, …). */
  readonly transport?: TransportOptions;
}

export interface FromKubeconfigOptions extends CreateClientOptions {
  /** Which kubeconfig, context and overrides (default: what kubectl would use). */
  readonly kubeconfig?: LoadConnectionOptions;
}

const BUILTIN_GROUPS: ReadonlySet<string> = new Set(builtinGroups.map((g) => g.group));

/** Whether a group is compiled into kube-apiserver (strategic merge patch and protobuf work there). */
export function isBuiltinGroup(group: string): boolean {
  return BUILTIN_GROUPS.has(group);
}

/**
 * Entry point: typed clients for built-in resources, user-typed clients for custom resources, and
 * clients for anything found through discovery, all over one transport.
 *
 *   const kube = await KubeClient.fromKubeconfig();
 *   const deployments = kube.resource("apps/v1", "Deployment");
 *   const d = await deployments.get("web"); // appsV1.Deployment, in the context's namespace
 */
export class KubeClient {
  readonly transport: HttpTransport;
  /** The namespace namespaced calls use when they name none. */
  readonly namespace: string;
  readonly discovery: Discovery;
  readonly #context: ClientContext;
  readonly #registry: ResourceRegistry;

  /** A client for the cluster the kubeconfig (or in-cluster service account) selects. */
  static async fromKubeconfig(options: FromKubeconfigOptions = {}): Promise<KubeClient> {
    return createClient(await loadClusterConnection(options.kubeconfig), options);
  }

  /**
   * A client over an existing transport. A custom `protobufCodec` decodes watch frames only if the
   * transport has its frame decoder too: {@link createClient} sets that up.
   */
  constructor(transport: HttpTransport, options: KubeClientOptions = {}) {
    this.transport = transport;
    this.namespace = options.namespace ?? transport.connection.namespace;
    this.discovery = new Discovery(transport);
    this.#registry = options.registry ?? builtinRegistry;
    const codec = protobufCodecOf(options);
    this.#context = {
      transport,
      codec: new BodyCodec(codec),
      watchFrameDecoder: codec?.decodeWatchFrame,
      defaultNamespace: this.namespace,
      protobuf: options.protobuf === true,
      encodingChosen: options.protobuf !== undefined,
      onWarning: options.onWarning,
    };
  }

  /** A typed client for a built-in resource, e.g. `resource("apps/v1", "Deployment")`. */
  resource<AV extends BuiltinApiVersion, K extends BuiltinResourceKind<AV>>(
    apiVersion: AV,
    kind: K,
  ): ResourceClient<BuiltinObject<AV, K>, BuiltinList<AV, K>> {
    const info = this.#registry.lookup({ ...parseApiVersion(apiVersion), kind });
    if (info === undefined) {
      throw new ClientError("UNKNOWN_RESOURCE", `no built-in resource serves ${kind} in ${apiVersion}`);
    }
    return new ResourceClient(this.#context, targetOf(info, isBuiltinGroup(info.group)));
  }

  /**
   * A client for a resource defined with `defineCustomResource`, typed by its schema: the storage
   * version unless `version` names another. Created and replaced objects are validated before
   * they are sent (see docs/guides/custom-resources.md).
   */
  custom<D extends CustomResourceDefinitionOf, V extends keyof D["versions"] & string = StorageVersionOf<D>>(
    definition: D,
    version?: V,
  ): DefinedResourceClient<CustomResourceOf<D, V> & KubernetesObject>;
  /** A client for a resource described by hand, typed by the caller: `custom<CronTab>({ … })`. */
  custom<T extends KubernetesObject = DynamicObject, L extends KubernetesList<T> = KubernetesList<T>>(
    resource: CustomResource,
  ): ResourceClient<T, L>;
  custom(
    resource: CustomResource | CustomResourceDefinitionOf,
    version?: string,
  ): ResourceClient<KubernetesObject> {
    if (!isDefinition(resource)) return new ResourceClient(this.#context, customTarget(resource));
    const name = version ?? resource.storageVersion;
    const target = customTarget({
      group: resource.group,
      version: name,
      plural: resource.plural,
      kind: resource.kind,
      namespaced: resource.namespaced,
    });
    if (!(name in resource.versions))
      throw new ClientError("UNKNOWN_RESOURCE", `${resource.kind} has no version ${name}`);
    return new DefinedResourceClient(this.#context, target, resource);
  }

  /**
   * A client for a resource found through discovery (cached; refetched once on a miss, so a CRD
   * created a moment ago is found). Objects are plain {@link DynamicObject}s unless typed by the caller.
   */
  async discover<T extends KubernetesObject = DynamicObject, L extends KubernetesList<T> = KubernetesList<T>>(
    reference: DiscoveryReference,
    control: RequestControl = {},
  ): Promise<ResourceClient<T, L>> {
    const info: ResourceInfo =
      typeof reference === "string"
        ? await this.discovery.resolve(reference, control)
        : await this.discovery.find(reference.apiVersion, reference.kind, control);
    return new ResourceClient<T, L>(this.#context, targetOf(info, isBuiltinGroup(info.group)));
  }

  /**
   * Resolves once the object named `name` satisfies `condition` (`condition("Ready")`, `deleted()`,
   * `established()`, `rolloutComplete()`, `matches(...)`): a list, then a watch from its
   * resourceVersion. `timeoutMs` ends it with a WaitTimeoutError naming the awaited state and the
   * last state seen; `signal` aborts it.
   */
  waitFor<T>(
    client: ReadClient<T, { items: T[] }>,
    name: string,
    condition: WaitCondition<NoInferFrom<T>>,
    options: WaitOptions = {},
  ): Promise<T | undefined> {
    return waitFor(client, name, condition, options);
  }

  // --- pod I/O and tool helpers (docs/guides/pod-io.md) ---
  #pods: PodOperations | undefined;
  /** Logs, exec, attach, port-forward, copy, eviction and proxy of pods. */
  get pods(): PodOperations {
    this.#pods ??= new PodOperations(this.transport, this.namespace);
    return this.#pods;
  }

  /** SelfSubjectAccessReview / SelfSubjectRulesReview helpers ("can I?"). */
  get access(): AccessReviews {
    return new AccessReviews(this.transport);
  }

  /** Node and pod usage from metrics.k8s.io. */
  get metrics(): MetricsClient {
    return new MetricsClient(this.transport, this.namespace);
  }

  /** A token for a ServiceAccount (`serviceaccounts/token`, a TokenRequest). */
  serviceAccountToken(name: string, options: TokenOptions = {}) {
    return createServiceAccountToken(this.transport, this.namespace, name, options);
  }
  // --- end pod I/O ---

  /** Closes every connection, including open watches. */
  close(): Promise<void> {
    return this.transport.close();
  }
}

/** A client for a connection, with its own transport. */
export function createClient(connection: ClusterConnection, options: CreateClientOptions = {}): KubeClient {
  const codec = protobufCodecOf(options);
  const transport = createTransport(
    connection,
    codec === undefined
      ? options.transport
      : {
          ...options.transport,
          // Decoded by the response's Content-Type, so harmless for JSON responses.
          protobufWatchFrameDecoder: codec.decodeWatchFrame,
          protobufDecoder: codec.decode,
        },
  );
  return new KubeClient(transport, options);
}

/** The client's protobuf codec in its `int64` mode; undefined for a JSON-only client. */
function protobufCodecOf(options: KubeClientOptions): ProtobufCodec | undefined {
  const int64 = int64Option(options.int64);
  const codec = options.protobufCodec;
  if (codec === undefined) {
    if (options.protobuf === true)
      throw new ClientError(
        "INVALID_OPTION",
        'protobuf: true needs a protobufCodec: import { protobufCodec } from "kubesdk/protobuf" and pass both',
      );
    return undefined;
  }
  return int64 === "number" ? codec : (codec.withInt64?.(int64) ?? codec);
}

function int64Option(value: unknown): Int64Mode {
  if (value === undefined) return "number";
  if (value === "number" || value === "bigint" || value === "string") return value;
  throw new ClientError(
    "INVALID_OPTION",
    `int64: expected "number", "bigint" or "string", got ${String(value)}`,
  );
}

function isDefinition(
  value: CustomResource | CustomResourceDefinitionOf,
): value is CustomResourceDefinitionOf {
  return typeof (value as { manifest?: unknown }).manifest === "function";
}

// What Kubernetes accepts for API groups, versions and CRD plurals.
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const GROUP = /^$|^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function customTarget(resource: CustomResource): ResourceTarget {
  const bad = (what: string) => new ClientError("INVALID_OPTION", `custom resource: ${what}`);
  const matches = (value: unknown, pattern: RegExp) => typeof value === "string" && pattern.test(value);
  if (!matches(resource?.group, GROUP))
    throw bad(`group ${JSON.stringify(resource?.group)} is not "" or a DNS subdomain`);
  if (!matches(resource.version, DNS_LABEL))
    throw bad(`version ${JSON.stringify(resource.version)} is not a DNS label`);
  if (!matches(resource.plural, DNS_LABEL))
    throw bad(`plural ${JSON.stringify(resource.plural)} is not a DNS label`);
  if (typeof resource.namespaced !== "boolean") throw bad("namespaced must be true or false");
  return {
    group: resource.group,
    version: resource.version,
    plural: resource.plural,
    namespaced: resource.namespaced,
    ...(resource.kind !== undefined ? { kind: resource.kind } : {}),
    builtin: false,
    ...(resource.subresources !== undefined ? { subresources: resource.subresources } : {}),
  };
}
