/**
 * The HTTPS call to a CRD's conversion webhook: POST of a ConversionReview to the clientConfig's
 * `url`, or to its `service` (resolved to an address by the caller, and verified as
 * `<service>.<namespace>.svc` as upstream does), trusting only the `caBundle` when one is given.
 * Asynchronous, with upstream's 30 s timeout (a server setting, so tests need not wait that long),
 * so a slow webhook stalls only the requests that need it. Node's https client is used as is: nothing more is needed for one POST.
 */
import { request } from "node:https";
import { isObject } from "./json-schema.js";

/** Upstream's webhook client timeout (the conversion webhook has no timeoutSeconds field). */
export const CONVERSION_TIMEOUT_MS = 30_000;
/** Answers larger than this are refused (the review carries whole lists of objects). */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

export interface ServiceRef {
  readonly namespace: string;
  readonly name: string;
  readonly port: number;
  readonly path: string;
}

/** Where a Service's webhook is reached: a ready endpoint's address and port. */
export type ServiceResolver = (ref: ServiceRef) => { host: string; port: number } | string;

export interface WebhookTarget {
  /** The URL shown in messages (upstream's client adds `?timeout=30s`). */
  readonly url: URL;
  /** Where to connect, when it differs from the URL's host (a Service's endpoint). */
  readonly connect?: { host: string; port: number };
  readonly ca?: string;
  /** How long the call may take, also shown in the URL as upstream's client does. */
  readonly timeoutMs: number;
}

/** A failed call; the message is worded as Go's HTTP client words it. */
export class WebhookCallFailed extends Error {}

/** The target of a clientConfig, or the reason none can be called. */
export function webhookTarget(
  clientConfig: unknown,
  resolve: ServiceResolver,
  timeoutMs = CONVERSION_TIMEOUT_MS,
): WebhookTarget | string {
  const cc = isObject(clientConfig) ? clientConfig : {};
  const ca =
    typeof cc.caBundle === "string" && cc.caBundle !== ""
      ? Buffer.from(cc.caBundle, "base64").toString("utf8")
      : undefined;
  if (typeof cc.url === "string" && cc.url !== "")
    return { url: withTimeout(new URL(cc.url), timeoutMs), timeoutMs, ...(ca ? { ca } : {}) };
  const svc = isObject(cc.service) ? cc.service : {};
  const ref: ServiceRef = {
    namespace: String(svc.namespace ?? ""),
    name: String(svc.name ?? ""),
    port: typeof svc.port === "number" ? svc.port : 443,
    path: typeof svc.path === "string" ? svc.path : "",
  };
  const at = resolve(ref);
  if (typeof at === "string") return at;
  const url = withTimeout(
    new URL(`https://${ref.name}.${ref.namespace}.svc:${ref.port}${ref.path}`),
    timeoutMs,
  );
  return { url, connect: at, timeoutMs, ...(ca ? { ca } : {}) };
}

/** The URL with the `timeout` parameter, spelled as Go's Duration prints it (30s, 1.5s, 500ms). */
function withTimeout(url: URL, timeoutMs: number): URL {
  const out = new URL(url);
  out.searchParams.set("timeout", timeoutMs < 1000 ? `${timeoutMs}ms` : `${timeoutMs / 1000}s`);
  return out;
}

/** POSTs `body` and resolves to the parsed JSON answer; rejects with WebhookCallFailed. */
export function postJson(target: WebhookTarget, body: unknown): Promise<unknown> {
  const payload = Buffer.from(JSON.stringify(body));
  const where = `Post "${target.url.href}"`;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        method: "POST",
        host: target.connect?.host ?? target.url.hostname.replace(/^\[|\]$/g, ""),
        port: target.connect?.port ?? (target.url.port === "" ? 443 : Number(target.url.port)),
        path: `${target.url.pathname}${target.url.search}`,
        servername: target.url.hostname,
        ...(target.ca ? { ca: target.ca } : {}),
        headers: {
          "content-type": "application/json",
          accept: "application/json, */*",
          "content-length": payload.length,
        },
        timeout: target.timeoutMs,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          size += c.length;
          if (size > MAX_ANSWER_BYTES) req.destroy(new Error("response body too large"));
          else chunks.push(c);
        });
        res.on("error", (e) => reject(new WebhookCallFailed(`${where}: ${e.message}`)));
        res.on("end", () =>
          settle(res.statusCode ?? 0, Buffer.concat(chunks).toString("utf8"), resolve, reject),
        );
      },
    );
    req.on("timeout", () =>
      req.destroy(new Error("context deadline exceeded (Client.Timeout exceeded while awaiting headers)")),
    );
    req.on("error", (e) => reject(new WebhookCallFailed(`${where}: ${goNetError(e, target)}`)));
    req.end(payload);
  });
}

function settle(code: number, text: string, resolve: (v: unknown) => void, reject: (e: Error) => void): void {
  if (code < 200 || code > 299) {
    reject(new WebhookCallFailed(statusText(code, text)));
    return;
  }
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: Go's client reads the body as YAML, where bare text is a string
  }
  if (isObject(parsed)) resolve(parsed);
  else reject(new WebhookCallFailed(`couldn't get version/kind; json parse error: ${notAnObject(parsed)}`));
}

/** encoding/json's error for a value that is not an object where the type meta struct is read. */
function notAnObject(v: unknown): string {
  const type = Array.isArray(v) ? "array" : typeof v === "boolean" ? "bool" : v === null ? "null" : typeof v;
  return `json: cannot unmarshal ${type} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`;
}

/** What Go's REST client reports for a non-2xx answer: the Status message, or the body. */
function statusText(code: number, text: string): string {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (isObject(parsed) && parsed.kind === "Status" && typeof parsed.message === "string")
      return parsed.message;
  } catch {
    // not JSON: the body itself is the message
  }
  if (code === 404) return "the server could not find the requested resource";
  return `an error on the server ("${text.trim()}") has prevented the request from succeeding`;
}

function goNetError(e: Error & { code?: string }, target: WebhookTarget): string {
  const host = target.connect?.host ?? target.url.hostname;
  const port = target.connect?.port ?? target.url.port;
  if (e.code === "ECONNREFUSED") return `dial tcp ${host}:${port}: connect: connection refused`;
  if (
    e.code === "DEPTH_ZERO_SELF_SIGNED_CERT" ||
    e.code === "UNABLE_TO_VERIFY_LEAF_SIGNATURE" ||
    e.code === "SELF_SIGNED_CERT_IN_CHAIN"
  )
    return "tls: failed to verify certificate: x509: certificate signed by unknown authority";
  return e.message;
}
