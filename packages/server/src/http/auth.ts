/**
 * Authentication: static bearer tokens, client certificates signed by the
 * server's CA (CN = user, O = groups), and anonymous access only when enabled.
 */
import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import { errors } from "../api/status.js";
import { identityFromCertificate } from "../tls.js";

export interface UserInfo {
  readonly name: string;
  readonly groups: readonly string[];
}

export interface AuthSettings {
  readonly tokens: ReadonlyMap<string, UserInfo>;
  readonly anonymous: boolean;
}

export function authenticate(req: IncomingMessage, settings: AuthSettings): UserInfo {
  const header = req.headers.authorization;
  if (header !== undefined) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const user = m ? settings.tokens.get(m[1] as string) : undefined;
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
  if (settings.anonymous) return { name: "system:anonymous", groups: ["system:unauthenticated"] };
  throw errors.unauthorized();
}
