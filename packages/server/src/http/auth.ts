/**
 * Authentication and a minimal authorizer: static bearer tokens and client
 * certificates signed by the server's CA (CN = user, O = groups) get full
 * access; a request with no credentials is `system:anonymous`, which — like
 * kube-apiserver's default (--anonymous-auth=true plus RBAC) — may read only
 * public paths and gets 403 Forbidden elsewhere, unless anonymous access is
 * allowed outright (a convenience for fake clusters) or turned off (401).
 */
import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import { errors, failure, type StatusError } from "../api/status.js";
import { identityFromCertificate } from "../tls.js";

export interface UserInfo {
  readonly name: string;
  readonly groups: readonly string[];
  readonly uid?: string;
  readonly extra?: Readonly<Record<string, readonly string[]>>;
  /**
   * Set on users the server knows nothing about (impersonated ones outside system:masters): they
   * have no permissions, as a user without RBAC bindings has none.
   */
  readonly restricted?: boolean;
}

/** What a request without credentials gets: kube-apiserver's default, full access, or 401. */
export type AnonymousPolicy = "forbidden" | "allowed" | "unauthorized";

export interface AuthSettings {
  readonly tokens: ReadonlyMap<string, UserInfo>;
  readonly anonymous: AnonymousPolicy;
}

export const ANONYMOUS: UserInfo = { name: "system:anonymous", groups: ["system:unauthenticated"] };

export function authenticate(req: IncomingMessage, settings: AuthSettings): UserInfo {
  const requester = authenticateRequester(req, settings);
  // Nearly no request impersonates: the raw header names are scanned instead of building the
  // per-line header object (headersDistinct), which costs an object of every header per request,
  // and the impersonation code is left uncompiled until a request needs it.
  return namesImpersonation(req.rawHeaders) ? impersonated(req, requester) : requester;
}

const MASTERS = "system:masters";

/**
 * Every line of a header, in order. HTTP/2 requests (Node's compatibility API) have no
 * headersDistinct, so their raw name/value list is read instead.
 */
function headerLines(req: IncomingMessage, name: string): string[] {
  if (req.headersDistinct !== undefined) return req.headersDistinct[name] ?? [];
  const lines: string[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]?.toLowerCase() === name) lines.push(req.rawHeaders[i + 1] as string);
  }
  return lines;
}

/**
 * `Impersonate-User` (with `Impersonate-Group`s): only an administrator may impersonate, and the
 * impersonated user has no permissions unless it is in system:masters.
 */
function impersonated(req: IncomingMessage, requester: UserInfo): UserInfo {
  const user = req.headers["impersonate-user"];
  // One group per header line, as Go reads them: a comma inside a line is part of the group name.
  const groups = headerLines(req, "impersonate-group");
  if (user === undefined) {
    const others = Object.keys(req.headers).filter((h) => h.startsWith("impersonate-"));
    if (others.length > 0)
      throw errors.badRequest(`requested impersonation (${others.join(", ")}) without impersonating a user`);
    return requester;
  }
  const name = String(user);
  if (requester === ANONYMOUS || requester.restricted || !requester.groups.includes(MASTERS))
    throw failure(
      403,
      "Forbidden",
      `users "${name}" is forbidden: User "${requester.name}" cannot impersonate resource "users" in API group "" at the cluster scope`,
      { name, kind: "users" },
    );
  const all = [...groups, "system:authenticated"];
  return { name, groups: all, restricted: !all.includes(MASTERS) };
}

/** Whether a raw name/value header list has an `Impersonate-*` name, in any case. */
function namesImpersonation(raw: readonly string[]): boolean {
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length >= 12 && name.slice(0, 12).toLowerCase() === "impersonate-") return true;
  }
  return false;
}

function authenticateRequester(req: IncomingMessage, settings: AuthSettings): UserInfo {
  const token = bearerToken(req.headers.authorization);
  if (token !== undefined) {
    const user = settings.tokens.get(token);
    if (!user) throw errors.unauthorized();
    return user;
  }
  const socket = req.socket as TLSSocket;
  if (typeof socket.getPeerCertificate === "function" && socket.authorized) {
    const id = identityFromCertificate(
      socket.getPeerCertificate()?.subject as unknown as Record<string, unknown>,
    );
    if (id) return { name: id.user, groups: [...id.groups, "system:authenticated"] };
  }
  if (settings.anonymous === "unauthorized") throw errors.unauthorized();
  return ANONYMOUS;
}

/**
 * The token of an Authorization header as kube-apiserver's bearer-token authenticator reads it:
 * trimmed, split at single spaces into at most three parts, the first `bearer` in any case, the
 * second the token. A header of any other shape (`Basic …`, `Bearer` alone, two spaces before
 * the token) carries no token, and the request goes on as anonymous; a token that is not known
 * is 401.
 */
export function bearerToken(header: string | undefined): string | undefined {
  const auth = (header ?? "").trim();
  if (auth === "") return undefined;
  const parts = auth.split(" ");
  if (parts.length < 2 || (parts[0] as string).toLowerCase() !== "bearer") return undefined;
  const token = parts[1] as string;
  return token === "" ? undefined : token;
}

const PUBLIC_PATHS = new Set(["/version", "/version/", "/healthz", "/livez", "/readyz"]);

/** What an anonymous request asks for, to word the 403 as RBAC does. */
export type AccessRequest =
  | { readonly path: string; readonly verb: string }
  | {
      readonly verb: string;
      readonly group: string;
      readonly resource: string;
      readonly subresource?: string | undefined;
      readonly namespace?: string | undefined;
      readonly name?: string | undefined;
    };

/** Throws the 403 Forbidden Status when `user` may not do `access`. */
export function authorize(user: UserInfo, settings: AuthSettings, access: AccessRequest): void {
  if (!allows(user, settings, access)) throw refusal(user, access);
}

/** The 403 of a refused access: apart from authorize, which a process's first request compiles. */
function refusal(user: UserInfo, access: AccessRequest): StatusError {
  if ("path" in access) {
    return failure(
      403,
      "Forbidden",
      `forbidden: User "${user.name}" cannot ${access.verb} path "${access.path}"`,
      {},
    );
  }
  const qualified = access.group ? `${access.resource}.${access.group}` : access.resource;
  const subject = access.name !== undefined ? `${qualified} "${access.name}"` : qualified;
  const resource = access.subresource ? `${access.resource}/${access.subresource}` : access.resource;
  const scope =
    access.namespace !== undefined ? `in the namespace "${access.namespace}"` : "at the cluster scope";
  return failure(
    403,
    "Forbidden",
    `${subject} is forbidden: User "${user.name}" cannot ${access.verb} resource "${resource}" in API group "${access.group}" ${scope}`,
    {
      ...(access.name !== undefined ? { name: access.name } : {}),
      ...(access.group ? { group: access.group } : {}),
      kind: access.resource,
    },
  );
}

/** Whether `user` may do `access`: the authorizer's decision without the 403 (the access reviews). */
export function allows(user: UserInfo, settings: AuthSettings, access: AccessRequest): boolean {
  return user.restricted !== true && (user !== ANONYMOUS || settings.anonymous === "allowed")
    ? true
    : "path" in access && PUBLIC_PATHS.has(access.path);
}
