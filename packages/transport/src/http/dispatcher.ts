import { Agent, type Dispatcher, ProxyAgent } from "undici";
import type { ClientCertificate } from "../auth/types.js";
import type { TlsSettings } from "../connection.js";

/** What a dispatcher for one cluster is built from. */
export interface DispatcherSettings {
  readonly tls: TlsSettings;
  readonly proxyUrl?: string;
  readonly connectTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  /** Offer HTTP/2 in TLS negotiation (undici's `allowH2`); not through a proxy. Default false. */
  readonly http2?: boolean;
}

/** Builds a dispatcher; replaceable for tests or custom pooling. */
export type DispatcherFactory = (
  settings: DispatcherSettings,
  clientCertificate?: ClientCertificate,
) => Dispatcher;

/** A keep-alive connection pool with the cluster's TLS settings, through the proxy when one is set. */
export const createDispatcher: DispatcherFactory = (settings, clientCertificate) => {
  const { tls } = settings;
  const tlsOptions = {
    rejectUnauthorized: tls.rejectUnauthorized,
    ...(tls.ca !== undefined ? { ca: tls.ca } : {}),
    ...(tls.servername !== undefined ? { servername: tls.servername } : {}),
    // A certificate from an exec plugin replaces the kubeconfig's static one.
    ...(clientCertificate !== undefined
      ? { cert: clientCertificate.cert, key: clientCertificate.key }
      : {
          ...(tls.cert !== undefined ? { cert: tls.cert } : {}),
          ...(tls.key !== undefined ? { key: tls.key } : {}),
        }),
  };
  const common = { keepAliveTimeout: settings.keepAliveTimeoutMs };
  if (settings.proxyUrl !== undefined) {
    return new ProxyAgent({
      ...common,
      uri: settings.proxyUrl,
      requestTls: { ...tlsOptions, timeout: settings.connectTimeoutMs },
      connect: { timeout: settings.connectTimeoutMs },
    });
  }
  return new Agent({
    ...common,
    ...(settings.http2 === true ? { allowH2: true } : {}),
    connect: { ...tlsOptions, timeout: settings.connectTimeoutMs },
  });
};

/**
 * One dispatcher per client certificate in use: the static one, plus one for the latest certificate
 * an exec plugin returned. A rotated certificate gets a new pool; the old one drains and closes.
 */
export class DispatcherPool {
  readonly #settings: DispatcherSettings;
  readonly #factory: DispatcherFactory;
  #base: Dispatcher | undefined;
  #rotating: { readonly cert: ClientCertificate; readonly dispatcher: Dispatcher } | undefined;
  readonly #all = new Set<Dispatcher>();

  constructor(settings: DispatcherSettings, factory: DispatcherFactory = createDispatcher) {
    this.#settings = settings;
    this.#factory = factory;
  }

  get(clientCertificate: ClientCertificate | undefined): Dispatcher {
    if (clientCertificate === undefined) {
      this.#base ??= this.#track(this.#factory(this.#settings));
      return this.#base;
    }
    if (this.#rotating === undefined || !sameCertificate(this.#rotating.cert, clientCertificate)) {
      const previous = this.#rotating?.dispatcher;
      this.#rotating = {
        cert: clientCertificate,
        dispatcher: this.#track(this.#factory(this.#settings, clientCertificate)),
      };
      if (previous !== undefined) {
        // Lets in-flight requests finish on the old certificate; a failure to close is not the caller's problem.
        previous.close().then(
          () => this.#all.delete(previous),
          () => this.#all.delete(previous),
        );
      }
    }
    return this.#rotating.dispatcher;
  }

  /** Closes every connection at once, including open watches. */
  async destroy(): Promise<void> {
    const all = [...this.#all];
    this.#all.clear();
    this.#base = undefined;
    this.#rotating = undefined;
    await Promise.allSettled(all.map((d) => d.destroy()));
  }

  #track(dispatcher: Dispatcher): Dispatcher {
    this.#all.add(dispatcher);
    return dispatcher;
  }
}

function sameCertificate(a: ClientCertificate, b: ClientCertificate): boolean {
  return a === b || (String(a.cert) === String(b.cert) && String(a.key) === String(b.key));
}
