import type { AuthProvider, Credentials } from "./types.js";

/** Credentials that never change, so a 401 is final. */
class FixedCredentialsAuth implements AuthProvider {
  readonly kind: string;
  // Private field: util.inspect and JSON.stringify do not show it.
  readonly #credentials: Credentials;

  constructor(kind: string, credentials: Credentials) {
    this.kind = kind;
    this.#credentials = credentials;
  }

  async credentials(): Promise<Credentials> {
    return this.#credentials;
  }

  async refreshAfterUnauthorized(): Promise<boolean> {
    return false;
  }
}

/** Sends no credentials (anonymous, or identity by a static client certificate in the TLS settings). */
export class NoAuth extends FixedCredentialsAuth {
  constructor() {
    super("none", {});
  }
}

/** A fixed bearer token. */
export class StaticTokenAuth extends FixedCredentialsAuth {
  constructor(token: string) {
    super("token", { authorization: `Bearer ${token}` });
  }
}

/** HTTP basic authentication with a fixed username and password. */
export class BasicAuth extends FixedCredentialsAuth {
  constructor(username: string, password: string) {
    super("basic", {
      authorization: `Basic ${Buffer.from(`${username}:${password}`, "utf8").toString("base64")}`,
    });
  }
}
