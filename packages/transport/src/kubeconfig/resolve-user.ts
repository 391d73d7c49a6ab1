import { ExecAuth } from "../auth/exec-auth.js";
import {
  EXEC_API_VERSIONS,
  EXEC_INTERACTIVE_MODES,
  type ExecApiVersion,
  type ExecClusterInfo,
  type ExecInteractiveMode,
  type ExecPluginSpec,
} from "../auth/exec-plugin.js";
import { BasicAuth, NoAuth, StaticTokenAuth } from "../auth/static.js";
import { TokenFileAuth } from "../auth/token-file.js";
import type { AuthProvider } from "../auth/types.js";
import type { Impersonation } from "../connection.js";
import type { ExecEntry, UserEntry } from "./model.js";
import { decodeBase64, entryError, readReferencedFile } from "./references.js";

/** Runtime knobs for the credentials a kubeconfig user resolves to. */
export interface CredentialOptions {
  /** Environment exec plugins inherit (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Whether stdin is a terminal, for exec interactiveMode (default `process.stdin.isTTY`). */
  readonly stdinIsTTY?: boolean;
  /** Minimum ms between stat checks of a token file (default 1000). */
  readonly tokenRecheckIntervalMs?: number;
  /** Wall clock (epoch ms) used for exec credential expiry; injectable for tests. */
  readonly now?: () => number;
}

/** A user entry turned into an auth provider, a static client certificate and impersonation. */
export interface ResolvedUser {
  readonly auth: AuthProvider;
  readonly cert?: Buffer;
  readonly key?: Buffer;
  readonly impersonation?: Impersonation;
}

/** Validates a user entry (kubectl's rules) and builds its credentials. Undefined means anonymous. */
export async function resolveUser(
  entry: UserEntry | undefined,
  cluster: ExecClusterInfo,
  options: CredentialOptions,
): Promise<ResolvedUser> {
  if (entry === undefined) return { auth: new NoAuth() };
  const fail = (key: string, problem: string) =>
    entryError("KUBECONFIG_INVALID", "users", entry.origin, key, problem);

  if (entry.authProvider !== undefined) {
    throw entryError(
      "KUBECONFIG_UNSUPPORTED",
      "users",
      entry.origin,
      "auth-provider",
      `auth-provider plugins (${entry.authProvider}) are not supported; use an exec credential plugin`,
    );
  }
  const hasToken = entry.token !== undefined || entry.tokenFile !== undefined;
  const hasBasic = entry.username !== undefined || entry.password !== undefined;
  if (hasToken && hasBasic) throw fail("username", "cannot be combined with token or tokenFile");

  const { cert, key } = await clientCertificate(entry, fail);
  const impersonation = impersonationOf(entry, fail);
  // An exec section is validated even when a token takes precedence over it, as kubectl does.
  const exec = entry.exec === undefined ? undefined : execSpec(entry, entry.exec);
  const auth = chooseAuth(entry, exec, cluster, options);
  return {
    auth,
    ...(cert !== undefined ? { cert } : {}),
    ...(key !== undefined ? { key } : {}),
    ...(impersonation !== undefined ? { impersonation } : {}),
  };
}

function chooseAuth(
  entry: UserEntry,
  exec: ExecPluginSpec | undefined,
  cluster: ExecClusterInfo,
  options: CredentialOptions,
): AuthProvider {
  // tokenFile before token: client-go re-reads the file and lets it replace the inline token.
  if (entry.tokenFile !== undefined) {
    return new TokenFileAuth(entry.tokenFile, {
      ...(options.tokenRecheckIntervalMs !== undefined
        ? { recheckIntervalMs: options.tokenRecheckIntervalMs }
        : {}),
    });
  }
  if (entry.token !== undefined) return new StaticTokenAuth(entry.token);
  if (entry.username !== undefined || entry.password !== undefined) {
    return new BasicAuth(entry.username ?? "", entry.password ?? "");
  }
  if (exec !== undefined) {
    return new ExecAuth({
      plugin: exec,
      cluster,
      ...(options.env !== undefined ? { baseEnv: options.env } : {}),
      ...(options.stdinIsTTY !== undefined ? { stdinIsTTY: options.stdinIsTTY } : {}),
      ...(options.now !== undefined ? { now: options.now } : {}),
    });
  }
  return new NoAuth();
}

function execSpec(entry: UserEntry, exec: ExecEntry): ExecPluginSpec {
  const fail = (key: string, problem: string) =>
    entryError("KUBECONFIG_INVALID", "users", entry.origin, `exec.${key}`, problem);
  if (exec.command === undefined) throw fail("command", "is required");
  const versions = EXEC_API_VERSIONS as readonly string[];
  if (exec.apiVersion === undefined || !versions.includes(exec.apiVersion)) {
    const got = exec.apiVersion === undefined ? "missing" : `got ${JSON.stringify(exec.apiVersion)}`;
    throw fail(
      "apiVersion",
      `expected ${EXEC_API_VERSIONS.map((v) => JSON.stringify(v)).join(" or ")} (${got})`,
    );
  }
  const apiVersion = exec.apiVersion as ExecApiVersion;
  let interactiveMode = exec.interactiveMode;
  // v1beta1 predates the field and defaults it; v1 requires an explicit choice.
  if (interactiveMode === undefined && apiVersion.endsWith("/v1beta1")) interactiveMode = "IfAvailable";
  if (interactiveMode === undefined) throw fail("interactiveMode", `is required for ${apiVersion}`);
  if (!(EXEC_INTERACTIVE_MODES as readonly string[]).includes(interactiveMode)) {
    throw fail(
      "interactiveMode",
      `expected "Never", "IfAvailable" or "Always" (got ${JSON.stringify(interactiveMode)})`,
    );
  }
  for (const [i, env] of exec.env.entries()) {
    if (env.name === "") throw fail(`env[${i}].name`, "is required");
  }
  return {
    command: exec.command,
    args: exec.args,
    env: exec.env,
    apiVersion,
    interactiveMode: interactiveMode as ExecInteractiveMode,
    provideClusterInfo: exec.provideClusterInfo,
    ...(exec.installHint !== undefined ? { installHint: exec.installHint } : {}),
  };
}

async function clientCertificate(
  entry: UserEntry,
  fail: (key: string, problem: string) => Error,
): Promise<{ cert?: Buffer; key?: Buffer }> {
  if (entry.clientCertificate !== undefined && entry.clientCertificateData !== undefined) {
    throw fail("client-certificate-data", "cannot be combined with client-certificate");
  }
  if (entry.clientKey !== undefined && entry.clientKeyData !== undefined) {
    throw fail("client-key-data", "cannot be combined with client-key");
  }
  const hasCert = entry.clientCertificate !== undefined || entry.clientCertificateData !== undefined;
  const hasKey = entry.clientKey !== undefined || entry.clientKeyData !== undefined;
  if (hasCert !== hasKey) {
    throw hasCert
      ? fail("client-key", "is required with a client certificate")
      : fail("client-certificate", "is required with a client key");
  }
  if (!hasCert) return {};
  const cert =
    entry.clientCertificateData !== undefined
      ? decodeBase64(entry.clientCertificateData)
      : await readReferencedFile(
          "users",
          entry.origin,
          "client-certificate",
          entry.clientCertificate as string,
        );
  const key =
    entry.clientKeyData !== undefined
      ? decodeBase64(entry.clientKeyData)
      : await readReferencedFile("users", entry.origin, "client-key", entry.clientKey as string);
  return { cert, key };
}

function impersonationOf(
  entry: UserEntry,
  fail: (key: string, problem: string) => Error,
): Impersonation | undefined {
  const extraKeys = Object.keys(entry.impersonateExtra);
  if (entry.impersonate === undefined) {
    if (entry.impersonateUid !== undefined || entry.impersonateGroups.length > 0 || extraKeys.length > 0) {
      throw fail("as", "is required when as-uid, as-groups or as-user-extra is set");
    }
    return undefined;
  }
  return {
    user: entry.impersonate,
    groups: entry.impersonateGroups,
    extra: entry.impersonateExtra,
    ...(entry.impersonateUid !== undefined ? { uid: entry.impersonateUid } : {}),
  };
}
