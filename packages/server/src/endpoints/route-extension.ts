/**
 * Route extensions that claim a few paths. Every request asks each extension in turn whether it
 * answers it; an async extension answers with a promise even for a path it never serves, and the
 * dispatcher's wait for each of those was a turn of the microtask queue per extension per request.
 * Wrapped here, an extension leaves every other path at once, with a plain `false`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { UserInfo } from "../http/auth.js";
import type { RouteExtension } from "./dispatch.js";

export function claimingPaths(claims: (pathname: string) => boolean, serve: RouteExtension): RouteExtension {
  return (req, res, url, user) => (claims(url.pathname) ? serve(req, res, url, user) : false);
}

/** An extension for the paths `pattern` matches, handed the match so the path is read once. */
export function matchingPath(
  pattern: RegExp,
  serve: (
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    user: UserInfo,
    match: RegExpExecArray,
  ) => Promise<boolean> | boolean,
): RouteExtension {
  return (req, res, url, user) => {
    const match = pattern.exec(url.pathname);
    return match ? serve(req, res, url, user, match) : false;
  };
}
