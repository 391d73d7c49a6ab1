/**
 * One HTTPS server for every webhook of a process: validating and mutating admission handlers per
 * kind, conversion for custom resources, `/healthz` and `/readyz`. Certificates come from files
 * (read again when they change: new connections get the new certificate, idle ones are closed so
 * clients reconnect) or are made at start for development. Each request's handler runs under a
 * deadline below the API server's timeout, and each answer is written whole, once.
 *
 * Standalone: `new WebhookServer(options)`, register handlers, `start()`, `stop()`. Under a manager:
 * `manager.webhooks(options)` returns the manager's server, started and stopped with it.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import type {
  CustomResourceDefinitionOf,
  CustomResourceOf,
  NoInferFrom,
  StorageVersionOf,
} from "@kubesdk/client";
import { ControllerError } from "../errors.js";
import type { WebhookMetrics } from "../metrics-api.js";
import { consoleLogger, type Logger } from "../reconcile.js";
import type { MutatingHandler, ValidatingHandler } from "./admission.js";
import {
  type CertificateFilesOptions,
  type CertificatePair,
  readCertificateFiles,
  watchCertificateFiles,
} from "./certificate-files.js";
import {
  type MutatingConfiguration,
  manifestWithConversion,
  mutatingConfiguration,
  type ValidatingConfiguration,
  validatingConfiguration,
  type WebhookEndpoint,
} from "./configurations.js";
import { converterEntry, type HubAndSpokes } from "./conversion.js";
import { handlerDeadlineMs } from "./deadline.js";
import { type AdmissionWebhookOptions, type DispatchResult, WebhookRegistry } from "./registry.js";
import { generateSelfSigned } from "./self-signed.js";
import type { KindTarget } from "./targets.js";

export type WebhookTls =
  | CertificateFilesOptions
  | { readonly selfSigned: { readonly hosts?: readonly string[]; readonly days?: number } };

export interface WebhookServerOptions {
  /** Default 9443 (controller-runtime's); 0 picks a free port. */
  readonly port?: number;
  /** Address to listen on (default 127.0.0.1; "0.0.0.0" in a Pod). */
  readonly host?: string;
  readonly tls: WebhookTls;
  /** The longest a handler may run (default 8000 ms; never more than 80% of the API server's timeout). */
  readonly handlerTimeoutMs?: number;
  /** Larger request bodies are refused with 413 (default 32 MiB). */
  readonly maxBodyBytes?: number;
  readonly metrics?: WebhookMetrics;
  readonly logger?: Logger;
}

type Def = CustomResourceDefinitionOf;
// biome-ignore lint/suspicious/noExplicitAny: the overloads' implementation takes handlers of any object type.
type AnyValidating = ValidatingHandler<any>;
// biome-ignore lint/suspicious/noExplicitAny: as above.
type AnyMutating = MutatingHandler<any>;
type Storage<D extends Def> = CustomResourceOf<D, StorageVersionOf<D>>;

export class WebhookServer {
  readonly #o: WebhookServerOptions;
  readonly #registry = new WebhookRegistry();
  readonly #reloadListeners = new Set<(pair: CertificatePair) => void>();
  readonly #inFlight = new Set<Promise<void>>();
  #server: Server | undefined;
  #stopWatching: (() => void) | undefined;
  #caPem: string | undefined;
  #state: "new" | "running" | "stopped" = "new";

  constructor(options: WebhookServerOptions) {
    this.#o = options;
  }

  /** Registers a validating handler for a custom resource (typed by its storage version) or any kind. */
  validating<D extends Def>(
    target: D,
    handler: ValidatingHandler<Storage<D>>,
    options?: AdmissionWebhookOptions,
  ): this;
  validating<T>(
    target: KindTarget | Def,
    handler: ValidatingHandler<T>,
    options?: AdmissionWebhookOptions,
  ): this;
  validating(target: KindTarget | Def, handler: AnyValidating, options?: AdmissionWebhookOptions): this {
    this.#checkNew();
    this.#registry.addAdmission("validating", target, handler, options);
    return this;
  }

  /** Registers a mutating handler: it returns the changed object, the server answers the JSON Patch. */
  mutating<D extends Def>(
    target: D,
    handler: MutatingHandler<Storage<D>>,
    options?: AdmissionWebhookOptions,
  ): this;
  mutating<T>(target: KindTarget | Def, handler: MutatingHandler<T>, options?: AdmissionWebhookOptions): this;
  mutating(target: KindTarget | Def, handler: AnyMutating, options?: AdmissionWebhookOptions): this {
    this.#checkNew();
    this.#registry.addAdmission("mutating", target, handler, options);
    return this;
  }

  /** Registers hub-and-spoke conversion between the definition's versions, served at `/convert`. */
  conversion<D extends Def, H extends keyof D["versions"] & string>(
    definition: D,
    converter: HubAndSpokes<NoInferFrom<D>, H>,
  ): this {
    this.#checkNew();
    this.#registry.addConverter(definition, converterEntry(definition, converter));
    return this;
  }

  /** `https://<host>:<port>` once started. */
  get url(): string {
    const host = this.#o.host ?? "127.0.0.1";
    return `https://${host.includes(":") ? `[${host}]` : host}:${this.port}`;
  }

  get port(): number {
    const address = this.#server?.address() as AddressInfo | null | undefined;
    if (!address) throw new ControllerError("INVALID_OPTION", "the webhook server is not listening");
    return address.port;
  }

  /** Base64 of the CA's PEM (self-signed, or `caFile`); undefined when certificates came without a CA. */
  get caBundle(): string | undefined {
    return this.#caPem === undefined ? undefined : Buffer.from(this.#caPem).toString("base64");
  }

  /** True once start() was called (the manager then leaves starting it alone). */
  get started(): boolean {
    return this.#state !== "new";
  }

  /** The underlying node:https server (after start()). */
  get server(): Server | undefined {
    return this.#server;
  }

  /** Called after each certificate reload; returns a function that removes the listener. */
  onCertificateReload(listener: (pair: CertificatePair) => void): () => void {
    this.#reloadListeners.add(listener);
    return () => this.#reloadListeners.delete(listener);
  }

  /** Where the API server reaches this server: its own URL and CA unless told otherwise. */
  endpoint(override?: Partial<WebhookEndpoint>): WebhookEndpoint {
    const caBundle = override?.caBundle ?? this.caBundle;
    if (caBundle === undefined)
      throw new ControllerError("INVALID_OPTION", "no caBundle: pass one, or give the server tls.caFile");
    if (override && "service" in override && override.service) return { service: override.service, caBundle };
    return { url: (override as { url?: string } | undefined)?.url ?? this.url, caBundle };
  }

  validatingWebhookConfiguration(name: string, endpoint?: Partial<WebhookEndpoint>): ValidatingConfiguration {
    return validatingConfiguration(name, this.#registry.admission, this.endpoint(endpoint));
  }

  mutatingWebhookConfiguration(name: string, endpoint?: Partial<WebhookEndpoint>): MutatingConfiguration {
    return mutatingConfiguration(name, this.#registry.admission, this.endpoint(endpoint));
  }

  /** The CRD of a definition registered with `conversion()`, converting through this server. */
  customResourceDefinition(definition: Def, endpoint?: Partial<WebhookEndpoint>) {
    return manifestWithConversion(definition, this.endpoint(endpoint));
  }

  async start(): Promise<void> {
    if (this.#state !== "new") throw new ControllerError("ALREADY_STARTED", "the webhook server was started");
    this.#state = "running";
    try {
      const pair = await this.#loadCertificates();
      const server = createServer({ cert: pair.certPem, key: pair.keyPem }, (req, res) =>
        this.#track(req, res),
      );
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(this.#o.port ?? 9443, this.#o.host ?? "127.0.0.1", () => {
          server.off("error", reject);
          resolve();
        });
      });
      this.#server = server;
      if ("certFile" in this.#o.tls) this.#watch(this.#o.tls, pair);
    } catch (err) {
      this.#state = "stopped";
      throw err;
    }
  }

  /** Stops listening, lets requests in flight be answered (each is bounded by its deadline), then closes. */
  async stop(): Promise<void> {
    if (this.#state !== "running" || this.#server === undefined) {
      this.#state = "stopped";
      return;
    }
    this.#state = "stopped";
    this.#stopWatching?.();
    const server = this.#server as Server;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    await Promise.all(this.#inFlight);
    server.closeAllConnections();
    await closed;
  }

  #checkNew(): void {
    if (this.#state !== "new")
      throw new ControllerError("ALREADY_STARTED", "register webhooks before start()");
  }

  async #loadCertificates(): Promise<CertificatePair> {
    const tls = this.#o.tls;
    if ("selfSigned" in tls) {
      const made = await generateSelfSigned(
        tls.selfSigned.hosts ?? ["127.0.0.1", "localhost"],
        tls.selfSigned.days,
      );
      this.#caPem = made.caPem;
      return made;
    }
    const pair = await readCertificateFiles(tls);
    this.#caPem = pair.caPem;
    return pair;
  }

  #watch(files: CertificateFilesOptions, initial: CertificatePair): void {
    const logger = this.#o.logger ?? consoleLogger;
    this.#stopWatching = watchCertificateFiles(
      files,
      initial,
      (pair) => {
        const server = this.#server as Server;
        server.setSecureContext({ cert: pair.certPem, key: pair.keyPem });
        if (pair.caPem !== undefined) this.#caPem = pair.caPem;
        // Idle keep-alive connections still speak for the old certificate: let clients reconnect.
        server.closeIdleConnections();
        logger.info("webhook serving certificate reloaded", { certFile: files.certFile });
        for (const listener of this.#reloadListeners) listener(pair);
      },
      (error) => logger.error("webhook certificate reload failed", { error: String(error) }),
    );
  }

  #track(req: IncomingMessage, res: ServerResponse): void {
    const done = this.#serve(req, res).catch((err) => {
      (this.#o.logger ?? consoleLogger).error("webhook request failed", { error: String(err) });
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
    this.#inFlight.add(done);
    void done.finally(() => this.#inFlight.delete(done));
  }

  async #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "https://webhook");
    const path = url.pathname;
    if (path === "/healthz" || path === "/readyz") return send(res, plainResult(200, "ok"));
    if (!this.#registry.has(path)) return send(res, plainResult(404, `no webhook at ${path}`));
    if (req.method !== "POST") return send(res, plainResult(405, "webhooks take POST"));
    const started = performance.now();
    const metrics = this.#o.metrics;
    metrics?.webhookInFlight(path, 1);
    let result: DispatchResult;
    try {
      const body = await readBody(req, this.#o.maxBodyBytes ?? 32 * 1024 * 1024);
      const deadline = handlerDeadlineMs(this.#o.handlerTimeoutMs ?? 8000, url.searchParams.get("timeout"));
      result =
        body === undefined
          ? plainResult(413, "request body too large")
          : await this.#registry.dispatch(path, body, deadline);
    } finally {
      metrics?.webhookInFlight(path, -1);
    }
    send(res, result);
    metrics?.webhookRequest(path, result.status, performance.now() - started);
  }
}

const plainResult = (status: number, text: string): DispatchResult => ({
  status,
  body: `${text}\n`,
  contentType: "text/plain; charset=utf-8",
});

function send(res: ServerResponse, r: DispatchResult): void {
  res.writeHead(r.status, { "content-type": r.contentType, "content-length": Buffer.byteLength(r.body) });
  res.end(r.body);
}

/** The body as text, or undefined when it passes `limit` bytes. */
async function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}
