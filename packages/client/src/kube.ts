/**
 * `Kube`: the entry point of kubesdk. Typed clients for built-in resources, user-typed clients for
 * custom resources, and clients for anything found through discovery, all over one transport.
 *
 *   const kube = await Kube.fromKubeconfig();
 *   const deployments = kube.resource("apps/v1", "Deployment");
 *   const d = await deployments.get("web"); // appsV1.Deployment, in the context's namespace
 */
import { join } from "node:path";
import {
  builtinGroups,
  registry as builtinRegistry,
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
  KubeConfig,
  loadClusterConnection,
} from "@kubesdk/transport";
import { DefinedResourceClient } from "./custom-resources/defined-client.js";
import type {
  CustomResourceDefinitionOf,
  CustomResourceOf,
  StorageVersionOf,
} from "./custom-resources/definition.js";
import { type CustomResource, customTarget, isDefinition } from "./custom-target.js";
import { Discovery } from "./discovery/discovery.js";
import { ClientError } from "./errors.js";
import { BodyCodec } from "./io/body-codec.js";
import type { ClientContext, RequestControl } from "./io/context.js";
import type { BuiltinApiVersion, BuiltinList, BuiltinObject, BuiltinResourceKind } from "./kinds.js";
import {
  type KubeConnectOptions,
  type KubeconfigSource,
  type KubeconfigTextOptions,
  type KubeFromKubeconfigOptions,
  type KubeOptions,
  protobufCodecOf,
  transportOptionsOf,
} from "./kube-options.js";
import {
  AccessReviews,
  createServiceAccountToken,
  MetricsClient,
  type TokenOptions,
} from "./pods/cluster-tools.js";
import { PodOperations } from "./pods/pod-operations.js";
import type { ReadClient } from "./read-client.js";
import { ResourceClient } from "./resource-client.js";
import { targetOf } from "./resource-target.js";
import type { NoInferFrom, WaitCondition } from "./wait/conditions.js";
import { type WaitOptions, waitFor } from "./wait/wait-for.js";

/** An object of a kind the client has no type for: any fields besides apiVersion, kind and metadata. */
export type DynamicObject = KubernetesObject & { [field: string]: unknown };

/** How to reach a resource through discovery: by apiVersion and kind, or by a kubectl-style name. */
export type DiscoveryReference = { readonly apiVersion: string; readonly kind: string } | string;

const BUILTIN_GROUPS: ReadonlySet<string> = new Set(builtinGroups.map((g) => g.group));

/** Whether a group is compiled into kube-apiserver (strategic merge patch and protobuf work there). */
export function isBuiltinGroup(group: string): boolean {
  return BUILTIN_GROUPS.has(group);
}

/** The one client class: see the file comment. Informers come from `new InformerFactory(kube)`. */
export class Kube {
  readonly transport: HttpTransport;
  /** The namespace namespaced calls use when they name none. */
  readonly namespace: string;
  readonly discovery: Discovery;
  readonly #context: ClientContext;
  readonly #registry: ResourceRegistry;

  /** A `Kube` for the current kubeconfig context (or the in-cluster service account). */
  static async fromKubeconfig(options: KubeFromKubeconfigOptions = {}): Promise<Kube> {
    return Kube.fromConnection(await loadClusterConnection(options.kubeconfig), options);
  }

  /** A `Kube` for a connection, with its own transport (closed by `close()`). */
  static fromConnection(connection: ClusterConnection, options: KubeConnectOptions = {}): Kube {
    return new Kube(createTransport(connection, transportOptionsOf(options)), options);
  }

  /**
   * A `Kube` for a kubeconfig document, e.g. the one of an embedded test server:
   * `Kube.fromKubeconfigText(await startServer())`.
   */
  static async fromKubeconfigText(
    source: KubeconfigSource | string,
    options: KubeconfigTextOptions = {},
  ): Promise<Kube> {
    const text = typeof source === "string" ? source : source.kubeconfig;
    // Relative certificate paths in the document resolve against the working directory.
    const config = KubeConfig.fromYaml(text, join(process.cwd(), "kubeconfig"));
    return Kube.fromConnection(await config.resolve(options.overrides), options);
  }

  /**
   * A client over an existing transport. A custom `protobufCodec` decodes watch frames only if the
   * transport has its frame decoder too: {@link Kube.fromConnection} sets that up.
   */
  constructor(transport: HttpTransport, options: KubeOptions = {}) {
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
