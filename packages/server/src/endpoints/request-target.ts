/**
 * The request target of an HTTP request, parsed without trusting it: origin
 * form (`/path?query`) or absolute form (`https://host/path?query`). The path
 * is percent-decoded once and split into segments, never normalised, so `..`
 * stays a name (which the handlers refuse) instead of addressing the parent.
 * A target that cannot be parsed is a 400 Status, not an exception.
 */
import { errors } from "../api/status.js";

export interface RequestTarget {
  /** The decoded path as sent (no dot-segment removal, no slash merging). */
  readonly pathname: string;
  /** The decoded path split on `/`; undefined when it has empty segments (`//`), which name nothing. */
  readonly segments: readonly string[] | undefined;
  readonly query: URLSearchParams;
  /** The raw `?…` part (empty when none). */
  readonly search: string;
  /**
   * A WHATWG URL of the same target for route extensions (openapi, fault controls); its pathname is
   * normalised, so it only serves prefix checks of paths that are not resources.
   */
  readonly url: URL;
}

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:\/\//i;

export function parseRequestTarget(raw: string | undefined): RequestTarget {
  let target = raw ?? "/";
  if (ABSOLUTE.test(target)) {
    let parsed: URL;
    try {
      parsed = new URL(target);
    } catch {
      throw errors.badRequest(`invalid request target: ${JSON.stringify(target.slice(0, 256))}`);
    }
    target = `${parsed.pathname}${parsed.search}`;
  }
  if (!target.startsWith("/"))
    throw errors.badRequest(`invalid request target: ${JSON.stringify(target.slice(0, 256))}`);
  const q = target.indexOf("?");
  const rawPath = q < 0 ? target : target.slice(0, q);
  const search = q < 0 ? "" : target.slice(q);
  const pathname = decodePath(rawPath);
  return {
    pathname,
    segments: splitSegments(pathname),
    query: new URLSearchParams(search),
    search,
    url: extensionUrl(rawPath, search),
  };
}

/** The URL route extensions see; the origin prefix keeps `//host` paths from being read as authorities. */
function extensionUrl(rawPath: string, search: string): URL {
  try {
    return new URL(`https://localhost${rawPath}${search}`);
  } catch {
    return new URL("https://localhost/");
  }
}

/** Decodes `%XX` escapes; a malformed escape is a 400, as Go's URL parser makes upstream answer. */
function decodePath(rawPath: string): string {
  if (!rawPath.includes("%")) return rawPath;
  try {
    return decodeURIComponent(rawPath);
  } catch {
    throw errors.badRequest(`invalid URL escape in request path: ${JSON.stringify(rawPath.slice(0, 256))}`);
  }
}

/** `/a/b/` → ["a", "b"]; `//a`, `/a//b` → undefined (an empty segment addresses nothing). */
function splitSegments(pathname: string): string[] | undefined {
  if (pathname === "/") return [];
  const body = pathname.endsWith("/") ? pathname.slice(1, -1) : pathname.slice(1);
  const parts = body.split("/");
  return parts.includes("") ? undefined : parts;
}
