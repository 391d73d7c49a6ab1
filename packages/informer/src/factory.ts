/**
 * InformerFactory: one informer — one list and one watch — per (resource, namespace, selectors,
 * metadata-only), however many parts of a program ask for it.
 */
import type { KubernetesObject } from "@kubesdk/models";
import type { HttpTransport } from "@kubesdk/transport";
import { InformerStoppedError } from "./errors.js";
import { Informer, type WaitForSyncOptions } from "./informer.js";
import type { InformerOptions } from "./options.js";
import { type ResourceTarget, resolveResource } from "./resource.js";

/** What distinguishes two shared informers of one resource. */
export interface InformerScope {
  readonly namespace?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  readonly metadataOnly?: boolean;
}

/** Settings shared by every informer of a factory. */
export type SharedInformerOptions = Omit<
  InformerOptions<KubernetesObject>,
  "resource" | "listerWatcher" | keyof InformerScope
>;

export class InformerFactory {
  readonly #transport: HttpTransport;
  readonly #defaults: SharedInformerOptions;
  readonly #informers = new Map<string, Informer<KubernetesObject>>();
  #started: { signal: AbortSignal | undefined } | undefined;
  #stopped = false;

  constructor(transport: HttpTransport, defaults: SharedInformerOptions = {}) {
    this.#transport = transport;
    this.#defaults = defaults;
  }

  /** Informers created so far. */
  get size(): number {
    return this.#informers.size;
  }

  /**
   * The shared informer for a resource and scope, created on first request. After start() new
   * informers start at once. The factory owns their lifecycle: stop them through the factory.
   */
  informerFor<T extends KubernetesObject = KubernetesObject>(
    resource: ResourceTarget | string,
    scope: InformerScope = {},
  ): Informer<T> {
    if (this.#stopped) throw new InformerStoppedError("the informer factory was stopped");
    const target = resolveResource(resource);
    const key = JSON.stringify([
      target.group,
      target.version,
      target.plural,
      scope.namespace ?? null,
      scope.labelSelector ?? "",
      scope.fieldSelector ?? "",
      scope.metadataOnly === true,
    ]);
    let informer = this.#informers.get(key);
    if (informer === undefined) {
      informer = new Informer<KubernetesObject>(this.#transport, {
        ...this.#defaults,
        ...scope,
        resource: target,
      });
      this.#informers.set(key, informer);
      if (this.#started !== undefined) informer.start(this.#started.signal);
    }
    return informer as unknown as Informer<T>;
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
}
