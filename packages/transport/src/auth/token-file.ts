import { CredentialError } from "./errors.js";
import { StatCachedFile, type StatCachedFileOptions } from "./stat-cached-file.js";
import type { AuthProvider, Credentials } from "./types.js";

/**
 * A bearer token read from a file (kubeconfig `tokenFile`, the in-cluster service account token).
 * The file is stat'ed at most once per recheck interval and re-read only when it changed; after a
 * 401 it is checked at once, and the request is retried if the token changed.
 */
export class TokenFileAuth implements AuthProvider {
  readonly kind = "token-file";
  readonly #file: StatCachedFile;
  #credentials: Credentials | undefined;

  constructor(path: string, options: StatCachedFileOptions = {}) {
    this.#file = new StatCachedFile(path, options);
  }

  get path(): string {
    return this.#file.path;
  }

  credentials(): Promise<Credentials> {
    return this.#load(false);
  }

  async refreshAfterUnauthorized(rejected: Credentials): Promise<boolean> {
    const fresh = await this.#load(true);
    return fresh.authorization !== rejected.authorization;
  }

  async #load(recheck: boolean): Promise<Credentials> {
    let content: string;
    try {
      content = await this.#file.read(recheck);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? "error";
      throw new CredentialError("TOKEN_FILE_UNREADABLE", this.path, `cannot read token file (${code})`, {
        cause: err,
      });
    }
    const token = content.trim();
    if (token === "") throw new CredentialError("TOKEN_FILE_EMPTY", this.path, "token file is empty");
    const authorization = `Bearer ${token}`;
    // Keep the same object while the token is unchanged so callers can compare by identity.
    if (this.#credentials?.authorization !== authorization) this.#credentials = { authorization };
    return this.#credentials;
  }
}
