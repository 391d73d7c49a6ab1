import path from "node:path";
import { LineCounter, parseDocument } from "yaml";
import type { z } from "zod";
import { formatFieldPath } from "../errors/base.js";
import { KubeconfigError } from "./errors.js";
import type { ClusterEntry, ContextEntry, ExecEntry, KubeconfigDocument, UserEntry } from "./model.js";
import {
  type ClusterShape,
  type ContextShape,
  type KubeconfigFileShape,
  kubeconfigFileSchema,
  type UserShape,
} from "./schema.js";

const EXEC_EXTENSION = "client.authentication.k8s.io/exec";

/**
 * Parses and validates one kubeconfig file's text. `file` names the file in errors and is the base
 * for relative paths. Errors name the field but never echo values (they may be secrets).
 */
export function parseKubeconfig(text: string, file: string): KubeconfigDocument {
  const absolute = path.resolve(file);
  const data = parseYaml(text, absolute);
  const result = kubeconfigFileSchema.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0];
    if (issue === undefined)
      throw new KubeconfigError("KUBECONFIG_INVALID", "invalid kubeconfig", { file: absolute });
    throw new KubeconfigError("KUBECONFIG_INVALID", describeIssue(issue, data), {
      file: absolute,
      fieldPath: formatFieldPath(issue.path),
    });
  }
  return toDocument(result.data, absolute);
}

function parseYaml(text: string, file: string): unknown {
  const lineCounter = new LineCounter();
  // prettyErrors off: pretty messages quote the offending source line, which may hold a token.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const first = doc.errors[0];
  if (first !== undefined) {
    const { line, col } = lineCounter.linePos(first.pos[0]);
    throw new KubeconfigError(
      "KUBECONFIG_SYNTAX",
      `invalid YAML at line ${line}, column ${col} (${first.code})`,
      {
        file,
      },
    );
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch {
    throw new KubeconfigError("KUBECONFIG_SYNTAX", "YAML aliases expand too far", { file });
  }
  if (data === null || data === undefined) return {};
  if (typeof data !== "object" || Array.isArray(data)) {
    throw new KubeconfigError("KUBECONFIG_INVALID", "the document is not a mapping", { file });
  }
  return data;
}

function describeIssue(issue: z.core.$ZodIssue, data: unknown): string {
  const actual = valueAt(data, issue.path);
  switch (issue.code) {
    case "invalid_type":
      return actual === undefined
        ? `is required (${issue.expected})`
        : `expected ${issue.expected}, got ${kindOf(actual)}`;
    case "invalid_value":
      return `expected ${issue.values.map((v) => JSON.stringify(v)).join(" or ")}`;
    case "custom":
      return issue.message;
    default:
      return `is invalid (${issue.code})`;
  }
}

function valueAt(data: unknown, segments: readonly PropertyKey[]): unknown {
  let v: unknown = data;
  for (const s of segments) {
    if (typeof v !== "object" || v === null) return undefined;
    v = (v as Record<PropertyKey, unknown>)[s];
  }
  return v;
}

function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

// --- conversion to the normalised model ---

function text(v: string | null | undefined): string | undefined {
  return v === null || v === undefined || v === "" ? undefined : v;
}

/** Makes a path absolute against the kubeconfig's directory, as kubectl does. */
function filePath(v: string | null | undefined, dir: string): string | undefined {
  const t = text(v);
  return t === undefined ? undefined : path.resolve(dir, t);
}

function toDocument(shape: KubeconfigFileShape, file: string): KubeconfigDocument {
  const dir = path.dirname(file);
  const currentContext = text(shape["current-context"]);
  return {
    file,
    clusters: (shape.clusters ?? []).map((c, index) =>
      toCluster(c.name, c.cluster ?? {}, { file, index }, dir),
    ),
    users: (shape.users ?? []).map((u, index) => toUser(u.name, u.user ?? {}, { file, index }, dir)),
    contexts: (shape.contexts ?? []).map((c, index) => toContext(c.name, c.context ?? {}, { file, index })),
    ...(currentContext !== undefined ? { currentContext } : {}),
  };
}

function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function toCluster(name: string, c: ClusterShape, origin: ClusterEntry["origin"], dir: string): ClusterEntry {
  const ext = (c.extensions ?? []).find((e) => e.name === EXEC_EXTENSION);
  return compact({
    name,
    origin,
    server: text(c.server),
    tlsServerName: text(c["tls-server-name"]),
    insecureSkipTlsVerify: c["insecure-skip-tls-verify"] ?? false,
    certificateAuthority: filePath(c["certificate-authority"], dir),
    certificateAuthorityData: text(c["certificate-authority-data"]),
    proxyUrl: text(c["proxy-url"]),
    disableCompression: c["disable-compression"] ?? false,
    execExtension: ext?.extension,
  });
}

function toExec(e: NonNullable<UserShape["exec"]>, dir: string): ExecEntry {
  const command = text(e.command);
  return compact({
    // Only a command with a path separator is file-relative; a bare name is looked up on PATH.
    command: command?.includes(path.sep) ? path.resolve(dir, command) : command,
    args: e.args ?? [],
    env: e.env ?? [],
    apiVersion: text(e.apiVersion),
    installHint: text(e.installHint),
    provideClusterInfo: e.provideClusterInfo ?? false,
    interactiveMode: text(e.interactiveMode),
  });
}

function toUser(name: string, u: UserShape, origin: UserEntry["origin"], dir: string): UserEntry {
  return compact({
    name,
    origin,
    clientCertificate: filePath(u["client-certificate"], dir),
    clientCertificateData: text(u["client-certificate-data"]),
    clientKey: filePath(u["client-key"], dir),
    clientKeyData: text(u["client-key-data"]),
    token: text(u.token),
    tokenFile: filePath(u.tokenFile, dir),
    username: text(u.username),
    password: text(u.password),
    impersonate: text(u.as),
    impersonateUid: text(u["as-uid"]),
    impersonateGroups: u["as-groups"] ?? [],
    impersonateExtra: u["as-user-extra"] ?? {},
    authProvider: u["auth-provider"]?.name,
    exec: u.exec ? toExec(u.exec, dir) : undefined,
  });
}

function toContext(name: string, c: ContextShape, origin: ContextEntry["origin"]): ContextEntry {
  return compact({
    name,
    origin,
    cluster: text(c.cluster),
    user: text(c.user),
    namespace: text(c.namespace),
  });
}
