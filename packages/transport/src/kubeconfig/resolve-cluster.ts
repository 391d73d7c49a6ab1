import type { ExecClusterInfo } from "../auth/exec-plugin.js";
import type { TlsSettings } from "../connection.js";
import type { ClusterEntry } from "./model.js";
import { decodeBase64, entryError, readReferencedFile } from "./references.js";

/** A cluster entry turned into connection settings (the client certificate comes from the user). */
export interface ResolvedCluster {
  readonly server: string;
  readonly tls: TlsSettings;
  readonly proxyUrl?: string;
  readonly disableCompression: boolean;
  readonly execInfo: ExecClusterInfo;
}

const PROXY_PROTOCOLS = new Set(["http:", "https:", "socks5:", "socks:"]);

/** Validates a cluster entry and loads its CA. */
export async function resolveCluster(entry: ClusterEntry): Promise<ResolvedCluster> {
  const fail = (key: string, problem: string) =>
    entryError("KUBECONFIG_INVALID", "clusters", entry.origin, key, problem);
  if (entry.server === undefined) throw fail("server", "is required");
  const server = normalizeServer(entry.server);
  if (server === undefined) throw fail("server", "is not an http(s) URL");

  if (entry.certificateAuthority !== undefined && entry.certificateAuthorityData !== undefined) {
    throw fail("certificate-authority-data", "cannot be combined with certificate-authority");
  }
  let ca: Buffer | undefined;
  if (entry.certificateAuthorityData !== undefined) ca = decodeBase64(entry.certificateAuthorityData);
  else if (entry.certificateAuthority !== undefined)
    ca = await readReferencedFile(
      "clusters",
      entry.origin,
      "certificate-authority",
      entry.certificateAuthority,
    );
  if (ca !== undefined && entry.insecureSkipTlsVerify) {
    throw fail("insecure-skip-tls-verify", "cannot be combined with a certificate authority");
  }

  if (entry.proxyUrl !== undefined && !isProxyUrl(entry.proxyUrl)) {
    // The value is not echoed: proxy URLs may carry a password.
    throw fail("proxy-url", "is not an http, https or socks5 URL");
  }

  const tls: TlsSettings = {
    rejectUnauthorized: !entry.insecureSkipTlsVerify,
    ...(ca !== undefined ? { ca } : {}),
    ...(entry.tlsServerName !== undefined ? { servername: entry.tlsServerName } : {}),
  };
  const execInfo: ExecClusterInfo = {
    server,
    insecureSkipTlsVerify: entry.insecureSkipTlsVerify,
    disableCompression: entry.disableCompression,
    ...(entry.tlsServerName !== undefined ? { tlsServerName: entry.tlsServerName } : {}),
    ...(ca !== undefined ? { certificateAuthorityData: ca.toString("base64") } : {}),
    ...(entry.proxyUrl !== undefined ? { proxyUrl: entry.proxyUrl } : {}),
    ...(entry.execExtension !== undefined ? { config: entry.execExtension } : {}),
  };
  return {
    server,
    tls,
    disableCompression: entry.disableCompression,
    execInfo,
    ...(entry.proxyUrl !== undefined ? { proxyUrl: entry.proxyUrl } : {}),
  };
}

/** `host:port` gets https:// as kubectl does; returns origin + path prefix without trailing slash. */
export function normalizeServer(server: string): string | undefined {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(server) ? server : `https://${server}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return undefined;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

function isProxyUrl(value: string): boolean {
  try {
    return PROXY_PROTOCOLS.has(new URL(value).protocol);
  } catch {
    return false;
  }
}
