import {
  type ExecClusterInfo,
  type ExecCredentialStatus,
  type ExecPluginSpec,
  runExecPlugin,
} from "./exec-plugin.js";
import type { AuthProvider, Credentials } from "./types.js";

/** Options of {@link ExecAuth}. */
export interface ExecAuthOptions {
  readonly plugin: ExecPluginSpec;
  /** Passed to the plugin when it asks for cluster info. */
  readonly cluster?: ExecClusterInfo;
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
  readonly stdinIsTTY?: boolean;
  /** Wall clock in epoch ms (compared with expirationTimestamp), injectable for tests. */
  readonly now?: () => number;
}

interface Cached {
  readonly credentials: Credentials;
  readonly expiresAt: number | undefined;
}

/**
 * Credentials from an exec plugin: run on first use, cached until `expirationTimestamp`, run again
 * once when the server answers 401 to them. Concurrent callers share one plugin run.
 */
export class ExecAuth implements AuthProvider {
  readonly kind = "exec";
  readonly #options: ExecAuthOptions;
  readonly #now: () => number;
  #cached: Cached | undefined;
  #inflight: Promise<Credentials> | undefined;

  constructor(options: ExecAuthOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  credentials(): Promise<Credentials> {
    const cached = this.#cached;
    if (cached !== undefined && (cached.expiresAt === undefined || this.#now() < cached.expiresAt)) {
      return Promise.resolve(cached.credentials);
    }
    return this.#run();
  }

  async refreshAfterUnauthorized(rejected: Credentials): Promise<boolean> {
    // Another request already replaced the rejected credentials: retry with those.
    if (this.#cached !== undefined && this.#cached.credentials !== rejected) return true;
    const fresh = await this.#run();
    return fresh.authorization !== rejected.authorization || !sameCertificate(fresh, rejected);
  }

  #run(): Promise<Credentials> {
    this.#inflight ??= runExecPlugin(this.#options.plugin, {
      ...(this.#options.baseEnv !== undefined ? { baseEnv: this.#options.baseEnv } : {}),
      ...(this.#options.stdinIsTTY !== undefined ? { stdinIsTTY: this.#options.stdinIsTTY } : {}),
      ...(this.#options.cluster !== undefined ? { cluster: this.#options.cluster } : {}),
    })
      .then((status) => {
        const credentials = toCredentials(status);
        this.#cached = { credentials, expiresAt: status.expiresAt };
        return credentials;
      })
      .finally(() => {
        this.#inflight = undefined;
      });
    return this.#inflight;
  }
}

function toCredentials(status: ExecCredentialStatus): Credentials {
  return {
    ...(status.token !== undefined ? { authorization: `Bearer ${status.token}` } : {}),
    ...(status.clientCertificateData !== undefined && status.clientKeyData !== undefined
      ? { clientCertificate: { cert: status.clientCertificateData, key: status.clientKeyData } }
      : {}),
  };
}

function sameCertificate(a: Credentials, b: Credentials): boolean {
  return (
    a.clientCertificate?.cert === b.clientCertificate?.cert &&
    a.clientCertificate?.key === b.clientCertificate?.key
  );
}
