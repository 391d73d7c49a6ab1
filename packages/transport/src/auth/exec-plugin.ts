import { spawn } from "node:child_process";
import { z } from "zod";
import { formatFieldPath } from "../errors/base.js";
import { ExecPluginError } from "./errors.js";

/** The ExecCredential API versions this SDK speaks (v1alpha1 was removed upstream in 1.24). */
export const EXEC_API_VERSIONS = [
  "client.authentication.k8s.io/v1",
  "client.authentication.k8s.io/v1beta1",
] as const;
export type ExecApiVersion = (typeof EXEC_API_VERSIONS)[number];

/** Whether a plugin may read the user's terminal. */
export const EXEC_INTERACTIVE_MODES = ["Never", "IfAvailable", "Always"] as const;
export type ExecInteractiveMode = (typeof EXEC_INTERACTIVE_MODES)[number];

/** A validated exec plugin configuration. */
export interface ExecPluginSpec {
  /** An absolute path, or a bare name looked up on PATH. Run without a shell. */
  readonly command: string;
  readonly args: readonly string[];
  readonly env: readonly { readonly name: string; readonly value: string }[];
  readonly apiVersion: ExecApiVersion;
  readonly installHint?: string;
  readonly provideClusterInfo: boolean;
  readonly interactiveMode: ExecInteractiveMode;
}

/** Cluster facts handed to a plugin in KUBERNETES_EXEC_INFO when `provideClusterInfo` is set. */
export interface ExecClusterInfo {
  readonly server: string;
  readonly tlsServerName?: string;
  readonly insecureSkipTlsVerify: boolean;
  /** Base64 of the PEM bundle. */
  readonly certificateAuthorityData?: string;
  readonly proxyUrl?: string;
  readonly disableCompression: boolean;
  readonly config?: unknown;
}

/** How to run a plugin. */
export interface ExecRunContext {
  /** Environment the plugin inherits before its own `env` entries (default `process.env`). */
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
  /** Whether stdin is a terminal (default `process.stdin.isTTY`). */
  readonly stdinIsTTY?: boolean;
  readonly cluster?: ExecClusterInfo;
}

/** The `status` of a plugin's ExecCredential. Holds secrets. */
export interface ExecCredentialStatus {
  readonly token?: string;
  readonly clientCertificateData?: string;
  readonly clientKeyData?: string;
  /** Epoch milliseconds; absent means valid until a 401. */
  readonly expiresAt?: number;
}

// Plugins that print megabytes are broken; stop reading instead of buffering without bound.
const MAX_STDOUT_BYTES = 1024 * 1024;

const optString = z.string().nullish();
const execCredentialSchema = z.object({
  apiVersion: z.string(),
  kind: z.literal("ExecCredential"),
  status: z
    .object({
      token: optString,
      clientCertificateData: optString,
      clientKeyData: optString,
      expirationTimestamp: optString,
    })
    .nullish(),
});

/** Runs the plugin once (no shell) and returns the credential it printed. */
export async function runExecPlugin(
  spec: ExecPluginSpec,
  context: ExecRunContext = {},
): Promise<ExecCredentialStatus> {
  const interactive = decideInteractive(spec, context.stdinIsTTY ?? process.stdin.isTTY === true);
  const env: Record<string, string | undefined> = { ...(context.baseEnv ?? process.env) };
  for (const { name, value } of spec.env) env[name] = value;
  env.KUBERNETES_EXEC_INFO = JSON.stringify(execInfo(spec, interactive, context.cluster));
  const stdout = await spawnForStdout(spec, env, interactive);
  return parseExecCredential(spec, stdout);
}

function decideInteractive(spec: ExecPluginSpec, stdinIsTTY: boolean): boolean {
  switch (spec.interactiveMode) {
    case "Never":
      return false;
    case "IfAvailable":
      return stdinIsTTY;
    case "Always":
      if (!stdinIsTTY) {
        throw new ExecPluginError(
          "EXEC_PLUGIN_NEEDS_TERMINAL",
          spec.command,
          "interactiveMode is Always but stdin is not a terminal",
        );
      }
      return true;
  }
}

function execInfo(spec: ExecPluginSpec, interactive: boolean, cluster: ExecClusterInfo | undefined): unknown {
  const spec_: Record<string, unknown> = { interactive };
  if (spec.provideClusterInfo && cluster !== undefined) {
    spec_.cluster = {
      server: cluster.server,
      ...(cluster.tlsServerName !== undefined ? { "tls-server-name": cluster.tlsServerName } : {}),
      ...(cluster.insecureSkipTlsVerify ? { "insecure-skip-tls-verify": true } : {}),
      ...(cluster.certificateAuthorityData !== undefined
        ? { "certificate-authority-data": cluster.certificateAuthorityData }
        : {}),
      ...(cluster.proxyUrl !== undefined ? { "proxy-url": cluster.proxyUrl } : {}),
      ...(cluster.disableCompression ? { "disable-compression": true } : {}),
      ...(cluster.config !== undefined ? { config: cluster.config } : {}),
    };
  }
  return { apiVersion: spec.apiVersion, kind: "ExecCredential", spec: spec_ };
}

function spawnForStdout(
  spec: ExecPluginSpec,
  env: Record<string, string | undefined>,
  interactive: boolean,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // stderr goes to the user's terminal, as with kubectl; it is never put into errors (it may hold secrets).
    const child = spawn(spec.command, spec.args, {
      env,
      shell: false,
      windowsHide: true,
      stdio: [interactive ? "inherit" : "ignore", "pipe", "inherit"],
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (err: ExecPluginError) => {
      if (settled) return;
      settled = true;
      reject(err);
    };
    child.stdout?.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_STDOUT_BYTES) {
        child.kill();
        fail(
          new ExecPluginError(
            "EXEC_PLUGIN_BAD_OUTPUT",
            spec.command,
            `wrote more than ${MAX_STDOUT_BYTES} bytes`,
          ),
        );
        return;
      }
      chunks.push(chunk);
    });
    // The spawn error is not attached as cause: it carries `spawnargs`, and arguments may hold secrets.
    child.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "ENOENT") {
        const hint = spec.installHint === undefined ? "" : `\n${spec.installHint}`;
        const problem = `executable not found${hint}`;
        fail(
          new ExecPluginError("EXEC_PLUGIN_NOT_FOUND", spec.command, problem, {
            installHint: spec.installHint,
          }),
        );
      } else {
        fail(
          new ExecPluginError("EXEC_PLUGIN_FAILED", spec.command, `could not start (${err.code ?? "error"})`),
        );
      }
    });
    child.on("close", (code, signal) => {
      if (code === 0) {
        if (!settled) {
          settled = true;
          resolve(Buffer.concat(chunks));
        }
        return;
      }
      const how = signal !== null ? `was killed by ${signal}` : `exited with code ${code}`;
      fail(new ExecPluginError("EXEC_PLUGIN_FAILED", spec.command, how));
    });
  });
}

function parseExecCredential(spec: ExecPluginSpec, stdout: Buffer): ExecCredentialStatus {
  const bad = (problem: string) => new ExecPluginError("EXEC_PLUGIN_BAD_OUTPUT", spec.command, problem);
  let json: unknown;
  try {
    json = JSON.parse(stdout.toString("utf8"));
  } catch {
    // The SyntaxError is dropped on purpose: its message quotes the output, which may hold a token.
    throw bad("output is not JSON");
  }
  const parsed = execCredentialSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw bad(
      `output is not an ExecCredential (${formatFieldPath(issue?.path ?? [])}: ${issue?.code ?? "invalid"})`,
    );
  }
  const { apiVersion, status } = parsed.data;
  if (apiVersion !== spec.apiVersion) {
    throw bad(
      `output has apiVersion ${JSON.stringify(apiVersion)}, configured ${JSON.stringify(spec.apiVersion)}`,
    );
  }
  if (status === null || status === undefined) throw bad("output has no status");
  const token = status.token || undefined;
  const cert = status.clientCertificateData || undefined;
  const key = status.clientKeyData || undefined;
  if (token === undefined && cert === undefined && key === undefined) {
    throw bad("output has neither a token nor a client certificate");
  }
  if ((cert === undefined) !== (key === undefined)) {
    throw bad("output has only one of clientCertificateData and clientKeyData");
  }
  let expiresAt: number | undefined;
  if (status.expirationTimestamp) {
    expiresAt = Date.parse(status.expirationTimestamp);
    if (Number.isNaN(expiresAt)) throw bad("status.expirationTimestamp is not a timestamp");
  }
  return {
    ...(token !== undefined ? { token } : {}),
    ...(cert !== undefined && key !== undefined ? { clientCertificateData: cert, clientKeyData: key } : {}),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
  };
}
