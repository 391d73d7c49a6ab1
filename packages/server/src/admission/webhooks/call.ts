/**
 * One HTTPS POST of an AdmissionReview, as kube-apiserver makes it: to `clientConfig.url`, or to a
 * ready endpoint of `clientConfig.service` (its EndpointSlices, with the TLS server name
 * `<service>.<namespace>.svc`), trusting only `caBundle` when one is set, with `?timeout=<n>s` and
 * the call abandoned after timeoutSeconds. Node's https client: the call never blocks the event
 * loop, and a webhook that hangs costs a timer, not a thread. Failures carry the text Go's client
 * gives for the same failure, as upstream puts it into its message.
 */
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { MAX_BODY_BYTES } from "../../http/limits.js";
import { readyEndpoints, servicePortName } from "../../registry/discovery/service-endpoints.js";
import type { AdmissionContext } from "../context.js";
import type { ClientConfig } from "./configurations.js";
import { WebhookCallError } from "./review.js";

type Json = Record<string, unknown>;

interface Target {
  /** The URL as upstream names it in messages (the service's DNS name for `service`). */
  readonly url: URL;
  readonly host: string;
  readonly port: number;
  readonly servername: string;
}

function withTimeout(base: string, timeoutSeconds: number): URL {
  const url = new URL(base);
  url.searchParams.set("timeout", `${timeoutSeconds}s`);
  return url;
}

function serviceTarget(
  s: NonNullable<ClientConfig["service"]>,
  ctx: AdmissionContext,
  timeout: number,
): Target {
  const service = ctx.store.get("/services", `${s.namespace}/${s.name}`) as Json | undefined;
  if (!service) throw new WebhookCallError(`service "${s.name}" not found`);
  const portName = servicePortName(service, s.port);
  if (portName === undefined)
    throw new WebhookCallError(`no service port ${s.port} found for service "${s.name}"`);
  const slices = ctx.store.list("discovery.k8s.io/endpointslices", { prefix: `${s.namespace}/` })
    .items as Json[];
  const endpoint = readyEndpoints(slices, s.name, portName)[0];
  if (!endpoint) throw new WebhookCallError(`no endpoints available for service "${s.name}"`);
  const servername = `${s.name}.${s.namespace}.svc`;
  const url = withTimeout(`https://${servername}:${s.port}${s.path ?? ""}`, timeout);
  return { url, host: endpoint.address, port: endpoint.port, servername };
}

function targetOf(c: ClientConfig, ctx: AdmissionContext, timeout: number): Target {
  if (c.service) return serviceTarget(c.service, ctx, timeout);
  const url = withTimeout(c.url ?? "", timeout);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return { url, host, port: Number(url.port || 443), servername: host };
}

/** Go's wording of a transport failure (net/http and crypto/tls). */
function goError(e: NodeJS.ErrnoException, t: Target): string {
  const addr = `${t.host}:${t.port}`;
  switch (e.code) {
    case "ECONNREFUSED":
      return `dial tcp ${addr}: connect: connection refused`;
    case "ECONNRESET":
      return `read tcp ${addr}: read: connection reset by peer`;
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
    case "SELF_SIGNED_CERT_IN_CHAIN":
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
      return "tls: failed to verify certificate: x509: certificate signed by unknown authority";
    case "ERR_TLS_CERT_ALTNAME_INVALID":
      return `tls: failed to verify certificate: x509: certificate is valid for other names, not ${t.servername}`;
    default:
      return e.message;
  }
}

function serverError(status: number, text: string): string {
  if (status === 404) return "the server could not find the requested resource";
  return `an error on the server (${JSON.stringify(text.slice(0, 1024))}) has prevented the request from succeeding`;
}

const TYPE_META_STRUCT =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

function goJsonType(v: unknown): string {
  if (Array.isArray(v)) return "array";
  if (typeof v === "boolean") return "bool";
  return typeof v;
}

/**
 * The answer decoded as Go's client decodes it, or why not: a body that is not JSON is read as YAML
 * (a plain string, then), anything but an object has no type meta, and the type must be a
 * registered AdmissionReview version.
 */
function decodeReview(text: string): Json | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    v = text;
  }
  if (typeof v !== "object" || v === null || Array.isArray(v))
    return `couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonType(v)} into Go value of type ${TYPE_META_STRUCT}`;
  const review = v as Json;
  const apiVersion = String(review.apiVersion ?? "");
  const kind = String(review.kind ?? "");
  if (kind === "") return `Object 'Kind' is missing in '${text}'`;
  if (!["admission.k8s.io/v1", "admission.k8s.io/v1beta1"].includes(apiVersion) || kind !== "AdmissionReview")
    return `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme "pkg/runtime/scheme.go:111"`;
  return review;
}

interface Answer {
  readonly status: number;
  readonly text: string;
}

/** One POST; rejects with Go's wording of a transport failure or of the deadline. */
function send(t: Target, ca: string | undefined, payload: Buffer, timeoutSeconds: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const fail = (why: string) =>
      reject(new WebhookCallError(`failed to call webhook: Post "${t.url.href}": ${why}`));
    const req = httpsRequest(
      {
        host: t.host,
        port: t.port,
        path: `${t.url.pathname}${t.url.search}`,
        method: "POST",
        ...(isIP(t.servername) === 0 ? { servername: t.servername } : {}),
        ...(ca ? { ca } : {}),
        agent: false,
        headers: {
          "content-type": "application/json",
          accept: "application/json, */*",
          "content-length": payload.length,
          host: t.url.host,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          // Past the limit the answer is dropped; the deadline then fails the call.
          if (size > MAX_BODY_BYTES) req.destroy();
          else chunks.push(chunk);
        });
        res.on("end", () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") });
        });
        res.on("error", () => undefined);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      fail("context deadline exceeded");
    }, timeoutSeconds * 1000);
    req.on("error", (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      fail(goError(e, t));
    });
    req.end(payload);
  });
}

/** POSTs the AdmissionReview `body`; resolves with the decoded answer, rejects with a WebhookCallError. */
export async function postReview(
  c: ClientConfig,
  timeoutSeconds: number,
  body: Json,
  ctx: AdmissionContext,
): Promise<Json> {
  const t = targetOf(c, ctx, timeoutSeconds);
  const ca = c.caBundle ? Buffer.from(c.caBundle, "base64").toString("utf8") : undefined;
  if (ca !== undefined && !ca.includes("-----BEGIN CERTIFICATE-----"))
    throw new WebhookCallError(
      "could not get REST client: unable to load root certificates: unable to parse bytes as PEM block",
    );
  const { status, text } = await send(t, ca, Buffer.from(JSON.stringify(body), "utf8"), timeoutSeconds);
  if (status < 200 || status > 299)
    throw new WebhookCallError(`failed to call webhook: ${serverError(status, text)}`);
  const decoded = decodeReview(text);
  if (typeof decoded === "string") throw new WebhookCallError(`failed to call webhook: ${decoded}`);
  return decoded;
}
