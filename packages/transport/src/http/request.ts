import type { Credentials } from "../auth/types.js";
import type { Impersonation } from "../connection.js";
import { InvalidRequestError } from "../errors/transport-errors.js";

/** HTTP methods the Kubernetes API uses. */
export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A query parameter value; undefined is left out, arrays repeat the key. */
export type QueryValue = string | number | boolean | readonly string[] | undefined;

/** Header values: one string, or several for a repeated header. */
export type HeaderValues = Readonly<Record<string, string | readonly string[]>>;

/** A request to the API server described as data: what to ask, not how to send it. */
export interface ApiRequest {
  readonly method: HttpMethod;
  /** Absolute API path such as `/api/v1/namespaces/default/pods`, sent verbatim: segments must already be percent-encoded. */
  readonly path: string;
  readonly query?: Readonly<Record<string, QueryValue>>;
  readonly headers?: HeaderValues;
  /** Bytes or text are sent as they are; any other value is serialised as JSON. */
  readonly body?: unknown;
  /** Content-Type of the body (default `application/json`). */
  readonly contentType?: string;
  /** Accept header (default `application/json`). */
  readonly accept?: string;
}

/** What goes on the wire for one request (origin and credentials aside). */
export interface HttpRequestParts {
  readonly method: HttpMethod;
  /** Server path prefix + request path + query string. */
  readonly path: string;
  readonly headers: Record<string, string | string[]>;
  readonly body?: string | Uint8Array;
}

/** Per-connection facts the builder needs. */
export interface RequestContext {
  /** Path prefix of the server URL ("" for none), e.g. `/k8s/clusters/c-1`. */
  readonly basePath: string;
  readonly userAgent: string;
  readonly impersonation?: Impersonation;
  /** Headers added to every request; a request's own headers win. */
  readonly defaultHeaders?: HeaderValues;
}

const METHODS = new Set<string>(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]);

/** Pure: turns a request description into method, path+query, headers and body. */
export function buildHttpRequest(request: ApiRequest, context: RequestContext): HttpRequestParts {
  if (!METHODS.has(request.method))
    throw new InvalidRequestError(`unsupported HTTP method ${JSON.stringify(request.method)}`);
  if (!request.path.startsWith("/"))
    throw new InvalidRequestError(`request path must start with "/": ${JSON.stringify(request.path)}`);

  const headers: Record<string, string | string[]> = {};
  const set = (name: string, value: string | readonly string[]) => {
    const values = typeof value === "string" ? [value] : [...value];
    for (const v of values) {
      if (/[\r\n]/.test(v)) throw new InvalidRequestError(`header ${name} contains a line break`);
    }
    headers[name.toLowerCase()] = values.length === 1 ? (values[0] as string) : values;
  };
  set("user-agent", context.userAgent);
  set("accept", request.accept ?? "application/json");
  if (context.impersonation !== undefined) {
    for (const [name, value] of impersonationHeaders(context.impersonation)) set(name, value);
  }
  for (const [name, value] of Object.entries(context.defaultHeaders ?? {})) set(name, value);

  const body = encodeBody(request.body);
  if (body !== undefined) set("content-type", request.contentType ?? "application/json");
  for (const [name, value] of Object.entries(request.headers ?? {})) set(name, value);

  const query = encodeQuery(request.query);
  const path = `${context.basePath}${request.path}${query === "" ? "" : `?${query}`}`;
  return { method: request.method, path, headers, ...(body !== undefined ? { body } : {}) };
}

/** Pure: adds the credentials' Authorization header unless the request already carries one. */
export function withCredentials(parts: HttpRequestParts, credentials: Credentials): HttpRequestParts {
  if (credentials.authorization === undefined || parts.headers.authorization !== undefined) return parts;
  return { ...parts, headers: { ...parts.headers, authorization: credentials.authorization } };
}

/** Query string with repeated keys for arrays, in the order given. */
export function encodeQuery(query: Readonly<Record<string, QueryValue>> | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, v);
    else params.append(key, String(value));
  }
  return params.toString();
}

function encodeBody(body: unknown): string | Uint8Array | undefined {
  if (body === undefined) return undefined;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  const json = JSON.stringify(body);
  if (json === undefined) throw new InvalidRequestError("request body cannot be serialised as JSON");
  return json;
}

function impersonationHeaders(imp: Impersonation): [string, string | readonly string[]][] {
  const out: [string, string | readonly string[]][] = [["impersonate-user", imp.user]];
  if (imp.uid !== undefined) out.push(["impersonate-uid", imp.uid]);
  if (imp.groups.length > 0) out.push(["impersonate-group", imp.groups]);
  for (const [key, values] of Object.entries(imp.extra)) {
    // Extra keys travel in a header name, so characters outside a token are percent-encoded.
    if (values.length > 0) out.push([`impersonate-extra-${encodeURIComponent(key)}`, values]);
  }
  return out;
}
