/**
 * `Kube`: the client with a shared informer factory, the entry point of the `kubesdk` package.
 *
 *   const kube = await Kube.fromKubeconfig();
 *   const pods = kube.resource("v1", "Pod");
 *   const informer = kube.informer("apps/v1", "Deployment");
 */
import { join } from "node:path";
import { type CreateClientOptions, createClient, KubeClient, type KubeClientOptions } from "@kubesdk/client";
import { InformerFactory, type SharedInformerOptions } from "@kubesdk/informer";
import {
  type ClusterConnection,
  type HttpTransport,
  KubeConfig,
  type KubeconfigOverrides,
  type LoadConnectionOptions,
  loadClusterConnection,
} from "@kubesdk/transport";

export interface KubeOptions extends KubeClientOptions {
  /** Defaults for every informer of `kube.informers` (resync period, backoff, ...). */
  readonly informers?: SharedInformerOptions;
}

export interface KubeConnectOptions extends KubeOptions, Omit<CreateClientOptions, keyof KubeClientOptions> {}

export interface KubeFromKubeconfigOptions extends KubeConnectOptions {
  /** Where to load the connection from; default: $KUBECONFIG, ~/.kube/config, then in-cluster. */
  readonly kubeconfig?: LoadConnectionOptions;
}

/** What `Kube.fromKubeconfigText` needs of a running API server, e.g. `startServer()`'s result. */
export interface KubeconfigSource {
  /** A kubeconfig document (YAML or JSON). */
  readonly kubeconfig: string;
}

export interface KubeconfigTextOptions extends KubeConnectOptions {
  /** Context, cluster, user or namespace other than the document's current context. */
  readonly overrides?: KubeconfigOverrides;
}

export class Kube extends KubeClient {
  /**
   * The informers every user of this `Kube` shares: two users asking for the same resource and
   * scope get one informer, so one list and one watch. A controller `Manager` shares them when given
   * `informers: kube.informers` (else it makes a factory of its own).
   */
  readonly informers: InformerFactory;

  /**
   * The shared informer for a built-in kind, `kube.informers.informer(...)`; start it with
   * `kube.informers.start()` (or its own `start()`). A namespaced kind is watched in the client's
   * namespace unless the scope names one or sets `allNamespaces: true`.
   */
  readonly informer: InformerFactory["informer"];

  constructor(transport: HttpTransport, options: KubeOptions = {}) {
    super(transport, options);
    this.informers = new InformerFactory(this, options.informers);
    this.informer = this.informers.informer.bind(this.informers);
  }

  /** A `Kube` for the current kubeconfig context (or the in-cluster service account). */
  static override async fromKubeconfig(options: KubeFromKubeconfigOptions = {}): Promise<Kube> {
    return Kube.fromConnection(await loadClusterConnection(options.kubeconfig), options);
  }

  /** A `Kube` for a connection, with its own transport (closed by `close()`). */
  static fromConnection(connection: ClusterConnection, options: KubeConnectOptions = {}): Kube {
    // The transport set up as createClient sets it up (protobuf decoders from `protobufCodec`).
    return new Kube(createClient(connection, options).transport, options);
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

  /** Stops every shared informer, then closes every connection. */
  override async close(): Promise<void> {
    await this.informers.stop();
    await super.close();
  }
}
