/**
 * Route extensions that claim a few paths. Every request asks each extension in turn whether it
 * answers it; an async extension answers with a promise even for a path it never serves, and the
 * dispatcher's wait for each of those was a turn of the microtask queue per extension per request.
 * Wrapped here, an extension leaves every other path at once, with a plain `false`.
 */
import type { RouteExtension } from "./dispatch.js";

export function claimingPaths(claims: (pathname: string) => boolean, serve: RouteExtension): RouteExtension {
  return (req, res, url, user) => (claims(url.pathname) ? serve(req, res, url, user) : false);
}
