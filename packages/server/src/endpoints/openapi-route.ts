/**
 * Serves OpenAPI v3 discovery as kube-openapi's handler does:
 * `GET /openapi/v3` lists every group/version with a hashed URL, and
 * `GET /openapi/v3/<path>` answers that group/version's document as JSON
 * with its hash as ETag; a request carrying a stale `hash` is redirected to
 * the current one, a current one may be cached forever. Protobuf is not
 * offered: kubectl then asks for JSON.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { errors } from "../api/status.js";
import { writeError } from "../http/respond.js";
import { etagOf, OpenApiDocuments } from "../openapi/documents.js";
import type { ResourceTable } from "../resources/table.js";
import type { RouteExtension } from "./dispatch.js";
import { claimingPaths } from "./route-extension.js";

const PREFIX = "/openapi/v3";

function acceptsJson(accept: string | undefined): boolean {
  if (!accept || accept.trim() === "") return true;
  return accept.split(",").some((part) => {
    const [type = "", ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    if (params.some((p) => p === "q=0")) return false;
    return type === "application/json" || type === "application/*" || type === "*/*";
  });
}

function send(
  res: ServerResponse,
  body: Buffer,
  etag: string,
  ifNoneMatch: string | undefined,
  extra: Record<string, string> = {},
): void {
  const quoted = `"${etag}"`;
  const headers = { "Content-Type": "application/json", Etag: quoted, Vary: "Accept", ...extra };
  if (ifNoneMatch?.split(",").some((t) => t.trim() === quoted || t.trim() === "*")) {
    res.writeHead(304, headers).end();
    return;
  }
  res.writeHead(200, { ...headers, "Content-Length": String(body.length) }).end(body);
}

/** `/openapi/v2`: the Swagger 2.0 document as JSON (the protobuf form is not offered: 406). */
function serveV2(req: IncomingMessage, res: ServerResponse, docs: OpenApiDocuments): void {
  try {
    if (req.method !== "GET" && req.method !== "HEAD") throw errors.notFoundPath();
    if (!acceptsJson(req.headers.accept)) throw errors.notAcceptable(["application/json"]);
    const doc = docs.v2();
    send(res, doc.json(), doc.hash, req.headers["if-none-match"]);
  } catch (e) {
    writeError(res, e);
  }
}

const isOpenApiPath = (path: string) =>
  path === "/openapi/v2" || path === PREFIX || path.startsWith(`${PREFIX}/`);

/**
 * The route extension; pass the server's ResourceTable so CRD changes show up at once. Its paths
 * are told apart first (claimingPaths), so the serving code is not compiled by a process's first
 * request for another path (docs/performance-history.md, session 22).
 */
export function openApiRoute(table: ResourceTable): RouteExtension {
  const docs = new OpenApiDocuments(table);
  return claimingPaths(isOpenApiPath, (req, res, url) => {
    if (url.pathname === "/openapi/v2") {
      serveV2(req, res, docs);
      return true;
    }
    try {
      if (req.method !== "GET" && req.method !== "HEAD") throw errors.notFoundPath();
      const ifNoneMatch = req.headers["if-none-match"];
      const rest = url.pathname.slice(PREFIX.length).replace(/^\/+|\/+$/g, "");
      if (rest === "") {
        const body = Buffer.from(JSON.stringify({ paths: docs.index() }));
        send(res, body, etagOf(body), ifNoneMatch);
        return true;
      }
      const doc = docs.byPath(rest);
      if (!doc) throw errors.notFoundPath();
      if (!acceptsJson(req.headers.accept)) throw errors.notAcceptable(["application/json"]);
      const hash = url.searchParams.get("hash");
      if (hash !== null && hash !== "" && hash !== doc.hash) {
        res.writeHead(301, { Location: `${PREFIX}/${rest}?hash=${doc.hash}` }).end();
        return true;
      }
      const caching: Record<string, string> =
        hash === doc.hash
          ? {
              "Cache-Control": "public, immutable",
              Expires: new Date(Date.now() + 365 * 86_400_000).toUTCString(),
            }
          : {};
      send(res, doc.json(), doc.hash, ifNoneMatch, caching);
    } catch (e) {
      writeError(res, e);
    }
    return true;
  });
}
