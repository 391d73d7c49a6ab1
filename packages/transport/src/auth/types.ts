/** A client certificate and its private key, PEM-encoded. Secret: never log. */
export interface ClientCertificate {
  readonly cert: string | Buffer;
  readonly key: string | Buffer;
}

/** What to present on one request. Providers return the same object until the credentials change. */
export interface Credentials {
  /** The Authorization header value, if any. */
  readonly authorization?: string;
  /** A client certificate the TLS connection must present (exec plugins may supply one). */
  readonly clientCertificate?: ClientCertificate;
}

/**
 * Supplies credentials for requests. After a 401 the transport reports the rejected credentials;
 * if the provider then has different ones it resolves true and the request is retried once.
 */
export interface AuthProvider {
  /** What kind of credentials this is, for diagnostics ("none", "token", "token-file", "basic", "exec", …). */
  readonly kind: string;
  credentials(signal?: AbortSignal): Promise<Credentials>;
  refreshAfterUnauthorized(rejected: Credentials, signal?: AbortSignal): Promise<boolean>;
}
