/**
 * An HTTPS endpoint in the test process that an API server calls: admission webhooks, conversion
 * webhooks. Both targets reach it on the loopback (kube-apiserver runs on this machine too), so the
 * same test registers it by `url` with the returned `caBundle`.
 *
 * The certificate is issued for 127.0.0.1 and localhost by a CA made for this endpoint alone, so a
 * test that forgets the `caBundle` fails the TLS handshake as it would on a cluster.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { createCertificateAuthority } from "../../packages/server/src/tls.js";

/** Answers one request: the parsed JSON body in, a JSON value (or a raw string/Buffer) out. */
export type WebhookHandler = (
  body: unknown,
  request: { readonly path: string; readonly headers: IncomingMessage["headers"] },
) => unknown | Promise<unknown>;

export interface HttpsWebhook {
  /** `https://<host>:<port>` — append the path the handler serves. */
  readonly url: string;
  /** Base64 of the CA's PEM, as `clientConfig.caBundle` wants it. */
  readonly caBundle: string;
  /** Every request received so far, in order: path and parsed body. */
  readonly requests: readonly { readonly path: string; readonly body: unknown }[];
  /** Replaces the handler for one path (exact match); unknown paths answer 404. */
  handle(path: string, handler: WebhookHandler): void;
  close(): Promise<void>;
}

export interface HttpsWebhookOptions {
  /** The address to listen on and to name in `url` (default 127.0.0.1). */
  readonly host?: string;
  /** More DNS names for the certificate, e.g. `<service>.<namespace>.svc` for a webhook called by `service`. */
  readonly dnsNames?: readonly string[];
}

export async function startHttpsWebhook(options: HttpsWebhookOptions = {}): Promise<HttpsWebhook> {
  const host = options.host ?? "127.0.0.1";
  const ca = createCertificateAuthority("kubesdk-test-webhook-ca");
  const serving = ca.issue({
    commonName: "test-webhook",
    dnsNames: ["localhost", ...(options.dnsNames ?? [])],
    ipAddresses: [...new Set(["127.0.0.1", host])],
    usage: "server",
  });
  const handlers = new Map<string, WebhookHandler>();
  const requests: { path: string; body: unknown }[] = [];
  const server = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    void serve(req, res);
  });
  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "https://x").pathname;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    let body: unknown = text;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      // keep the raw text: a test may assert on what a server sent
    }
    requests.push({ path, body });
    const handler = handlers.get(path);
    if (handler === undefined) {
      res.writeHead(404).end();
      return;
    }
    try {
      const out = await handler(body, { path, headers: req.headers });
      if (res.writableEnded || res.destroyed) return;
      const raw = typeof out === "string" || Buffer.isBuffer(out) ? out : JSON.stringify(out);
      res.writeHead(200, { "content-type": "application/json" }).end(raw);
    } catch (err) {
      res.writeHead(500, { "content-type": "text/plain" }).end(String(err));
    }
  }
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://${host}:${port}`,
    caBundle: Buffer.from(ca.certPem).toString("base64"),
    requests,
    handle: (path, handler) => handlers.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
