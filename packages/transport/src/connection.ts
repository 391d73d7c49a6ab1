import type { AuthProvider } from "./auth/types.js";

/** TLS settings for connections to one API server. `key` is secret: never log these settings. */
export interface TlsSettings {
  /** PEM bundle of trusted CAs; absent means the system's roots. */
  readonly ca?: Buffer;
  /** Static client certificate and key (PEM). Exec plugins may supply them per request instead. */
  readonly cert?: Buffer;
  readonly key?: Buffer;
  /** Name to verify the server certificate against and to send as SNI (kubeconfig `tls-server-name`). */
  readonly servername?: string;
  /** False only with `insecure-skip-tls-verify`. */
  readonly rejectUnauthorized: boolean;
}

/** Identity to impersonate (kubeconfig `as`, `as-uid`, `as-groups`, `as-user-extra`). */
export interface Impersonation {
  readonly user: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra: Readonly<Record<string, readonly string[]>>;
}

/** Where a connection's settings came from. */
export type ConnectionSource =
  | {
      readonly kind: "kubeconfig";
      readonly files: readonly string[];
      readonly context: string | undefined;
      readonly cluster: string;
      readonly user: string | undefined;
    }
  | { readonly kind: "in-cluster"; readonly serviceAccountDir: string }
  | { readonly kind: "custom" };

/**
 * Everything needed to talk to one API server: where it is, how to trust it, who we are, and the
 * default namespace. Produced from a kubeconfig or in-cluster files, or built by hand.
 */
export interface ClusterConnection {
  /** Base URL without trailing slash; may carry a path prefix (e.g. behind a proxy), which is kept. */
  readonly server: string;
  /** Default namespace: the override, else the context's, else "default". */
  readonly namespace: string;
  readonly tls: TlsSettings;
  /** http(s):// or socks5:// proxy for all requests (kubeconfig `proxy-url`). */
  readonly proxyUrl?: string;
  readonly auth: AuthProvider;
  readonly impersonation?: Impersonation;
  readonly disableCompression: boolean;
  readonly source: ConnectionSource;
}
