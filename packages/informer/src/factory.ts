/**
 * InformerFactory: one informer — one list and one watch — per (resource, encoding, namespace,
 * selectors, metadata-only), however many parts of a program ask for it.
 */
import type {
  BuiltinApiVersion,
  BuiltinObject,
  BuiltinResourceKind,
  Kube,
  ReadClient,
  ResourceClient,
} from "@kubesdk/client";
import type { KubernetesList, KubernetesObject, metaV1 } from "@kubesdk/models";
import { InformerStoppedError } from "./errors.js";
import { Informer, inInformerEncoding, type WaitForSyncOptions } from "./informer.js";
import type { InformerOptions } from "./options.js";
import type { InformerSelection } from "./selection.js";

/** What distinguishes two shared informers of one resource. */
export interface InformerScope extends InformerSelection {
  /** Cache PartialObjectMetadata (metadata only) instead of whole objects. */
  readonly metadataOnly?: boolean;
}

/** Settings shared by every informer of a factory. */
export type SharedInformerOptions = Omit<
  InformerOptions<KubernetesObject>,
  "listerWatcher" | keyof InformerScope
>;

type AnyResourceClient<T extends KubernetesObject> = ResourceClient<T, KubernetesList<T>>;
type Reader = ReadClient<KubernetesObject, { items: KubernetesObject[] }>;

export class InformerFactory {
  readonly #client: Kube;
  readonly #defaults: SharedInformerOptions;
  readonly #informers = new Map<string, Informer<KubernetesObject>>();
  #started: { signal: AbortSignal | undefined } | undefined;
  #stopped = false;

  constructor(client: Kube, defaults: SharedInformerOptions = {}) {
    this.#client = client;
    this.#defaults = defaults;
  }

  /** Informers created so far. */
  get size(): number {
    return this.#informers.size;
  }

  /** The shared informer of a built-in resource, typed like `kube.resource(apiVersion, kind)`. */
  informer<AV extends BuiltinApiVersion, K extends BuiltinResourceKind<AV>>(
    apiVersion: AV,
    kind: K,
    scope: InformerScope & { readonly metadataOnly: true },
  ): Informer<metaV1.PartialObjectMetadata>;
  informer<AV extends BuiltinApiVersion, K extends BuiltinResourceKind<AV>>(
    apiVersion: AV,
    kind: K,
    scope?: InformerScope & { readonly metadataOnly?: false },
  ): Informer<BuiltinObject<AV, K>>;
  informer<AV extends BuiltinApiVersion, K extends BuiltinResourceKind<AV>>(
    apiVersion: AV,
    kind: K,
    scope: InformerScope = {},
  ): Informer<KubernetesObject> {
    const resource = this.#client.resource(apiVersion, kind);
    return this.#shared(resource as unknown as AnyResourceClient<KubernetesObject>, scope);
  }

  /**
   * The shared informer of any resource client: custom resources (`kube.custom<CronTab>(…)`) and
   * discovered ones (`await kube.discover(…)`). After start() new informers start at once. The
   * factory owns their lifecycle: stop them through the factory.
   */
  informerFor<T extends KubernetesObject>(
    resource: AnyResourceClient<T>,
    scope: InformerScope & { readonly metadataOnly: true },
  ): Informer<metaV1.PartialObjectMetadata>;
  informerFor<T extends KubernetesObject>(
    resource: AnyResourceClient<T>,
    scope?: InformerScope & { readonly metadataOnly?: false },
  ): Informer<T>;
  informerFor<T extends KubernetesObject>(
    resource: AnyResourceClient<T>,
    scope: InformerScope = {},
  ): Informer<KubernetesObject> {
    return this.#shared(resource as unknown as AnyResourceClient<KubernetesObject>, scope);
  }

  /** Starts every informer (and those created later). */
  start(signal?: AbortSignal): void {
    if (this.#stopped) throw new InformerStoppedError("the informer factory was stopped");
    this.#started = { signal };
    for (const informer of this.#informers.values()) informer.start(signal);
  }

  /** Resolves when every informer has synced; rejects like Informer.waitForSync. */
  async waitForSync(options: WaitForSyncOptions = {}): Promise<void> {
    await Promise.all([...this.#informers.values()].map((i) => i.waitForSync(options)));
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.all([...this.#informers.values()].map((i) => i.stop()));
  }

  #shared(resource: AnyResourceClient<KubernetesObject>, scope: InformerScope): Informer<KubernetesObject> {
    if (this.#stopped) throw new InformerStoppedError("the informer factory was stopped");
    const { metadataOnly, ...selection } = scope;
    const { encoding, ...options } = { ...this.#defaults, ...selection };
    // Applied here, before metadataOnly(), so shared metadata-only informers get it too.
    const encoded = inInformerEncoding(resource, encoding);
    const reader: Reader = metadataOnly === true ? encoded.metadataOnly() : encoded;
    const key = sharingKey(reader, selection);
    let informer = this.#informers.get(key);
    if (informer === undefined) {
      informer = new Informer<KubernetesObject>(reader, options);
      this.#informers.set(key, informer);
      if (this.#started !== undefined) informer.start(this.#started.signal);
    }
    return informer;
  }
}

/**
 * Two asks share an informer when they send the same requests: the client builds the list request
 * (namespace rule, representation, encoding, selectors in either form), so its parts are the key.
 */
function sharingKey(reader: Reader, selection: InformerSelection): string {
  const { path, accept, query } = reader.requests.list(selection);
  return JSON.stringify([path, accept ?? "", query?.labelSelector ?? "", query?.fieldSelector ?? ""]);
}
