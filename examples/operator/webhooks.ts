/**
 * The WebApp operator's webhooks, all typed by the one definition in webapp.ts and served by the
 * manager's webhook server: defaulting (replicas 1, port 8080), validation (the image names a tag
 * other than latest, or a digest) and conversion between v1alpha1 and v1 (hub v1). While the
 * operator runs they are registered with the API server by URL or by Service, with the server's
 * own CA; the CRD's conversion stanza points at the same address.
 */
import type { Kube } from "@kubesdk/client";
import { deny, type Manager, type WebhookServer } from "@kubesdk/controller";
import { isNotFound } from "@kubesdk/transport";
import { installWebAppCrd, webAppDefinition } from "./webapp.js";

export const WEBHOOK_CONFIGURATION = "webapp-operator";

/** Where the API server reaches the operator's webhooks. */
export interface WebhookAddress {
  /** Listening port (0 picks a free one). */
  readonly port: number;
  /**
   * The name or IP the API server dials (default 127.0.0.1: only an API server on this host). It
   * goes into the self-signed certificate; a host other than the loopback makes the server listen
   * on every interface.
   */
  readonly host?: string;
  /** In a cluster: register by this Service (which selects the operator's Pod) instead of by URL. */
  readonly service?: { readonly namespace: string; readonly name: string; readonly port?: number };
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

/** `namespace/name[:port]` of the --webhook-service flag. */
export function parseService(text: string): NonNullable<WebhookAddress["service"]> {
  const match = /^([a-z0-9-]+)\/([a-z0-9-]+)(?::(\d+))?$/.exec(text);
  if (!match) throw new Error(`--webhook-service ${JSON.stringify(text)}: expected namespace/name[:port]`);
  const [, namespace = "", name = "", port] = match;
  return { namespace, name, ...(port !== undefined ? { port: Number(port) } : {}) };
}

function certificateHosts(address: WebhookAddress): string[] {
  const hosts = new Set(["127.0.0.1", "localhost", address.host ?? "127.0.0.1"]);
  const s = address.service;
  if (s)
    for (const name of [`${s.name}.${s.namespace}.svc`, `${s.name}.${s.namespace}.svc.cluster.local`])
      hosts.add(name);
  return [...hosts];
}

/** Creates the manager's webhook server (self-signed) with the three WebApp webhooks. */
export function createWebAppWebhooks(manager: Manager, address: WebhookAddress): WebhookServer {
  const local = address.service === undefined && LOOPBACK.has(address.host ?? "127.0.0.1");
  const server = manager.webhooks({
    port: address.port,
    host: local ? "127.0.0.1" : "0.0.0.0",
    tls: { selfSigned: { hosts: certificateHosts(address) } },
  });
  server.mutating(webAppDefinition, (app) => {
    app.spec.replicas ??= 1;
    app.spec.http ??= { port: 8080 };
    return app;
  });
  server.validating(webAppDefinition, ({ object }) => {
    const image = object?.spec.image ?? "";
    if (!image.includes("@") && (!/:[^/]+$/.test(image) || image.endsWith(":latest")))
      return deny(`spec.image ${JSON.stringify(image)}: name a tag other than latest, or a digest`);
    return undefined;
  });
  server.conversion(webAppDefinition, {
    hub: "v1",
    spokes: {
      v1alpha1: {
        toHub: ({ spec: { port, ...spec }, ...app }) => ({
          ...app,
          spec: { ...spec, ...(port !== undefined ? { http: { port } } : {}) },
        }),
        fromHub: ({ spec: { http, ...spec }, ...app }) => ({
          ...app,
          spec: { ...spec, ...(http !== undefined ? { port: http.port } : {}) },
        }),
      },
    },
  });
  return server;
}

/** Where the webhooks are registered: a URL, or a Service (the CA is the server's own). */
export type RegisteredAt =
  | { readonly url: string }
  | { readonly service: NonNullable<WebhookAddress["service"]> };

/** The endpoint to register once the server listens (its port is known only then). */
export function webhookEndpoint(server: WebhookServer, address: WebhookAddress): RegisteredAt {
  // A Service's own port (default 443) forwards to the Pod's listening port.
  if (address.service) return { service: address.service };
  const host = address.host ?? "127.0.0.1";
  return { url: `https://${host.includes(":") ? `[${host}]` : host}:${server.port}` };
}

const paths = {
  ValidatingWebhookConfiguration: "validatingWebhookConfiguration",
  MutatingWebhookConfiguration: "mutatingWebhookConfiguration",
} as const;

/**
 * Applies the CRD with its conversion stanza, then both admission configurations, all pointing at
 * `server` (started). The configurations point at this process, so `unregisterWebAppWebhooks`
 * removes them when it stops; the CRD keeps its conversion stanza (the next start replaces it).
 */
export async function registerWebAppWebhooks(
  kube: Kube,
  server: WebhookServer,
  address: WebhookAddress,
): Promise<RegisteredAt> {
  const endpoint = webhookEndpoint(server, address);
  await installWebAppCrd(kube, server, endpoint);
  for (const kind of Object.keys(paths) as (keyof typeof paths)[]) {
    const config = server[paths[kind]](WEBHOOK_CONFIGURATION, endpoint);
    await kube
      .resource("admissionregistration.k8s.io/v1", kind)
      .apply(config as never, { fieldManager: "webapp-operator", conflicts: "force" });
  }
  return endpoint;
}

export async function unregisterWebAppWebhooks(kube: Kube): Promise<void> {
  for (const kind of Object.keys(paths) as (keyof typeof paths)[])
    await kube
      .resource("admissionregistration.k8s.io/v1", kind)
      .delete(WEBHOOK_CONFIGURATION)
      .catch((err: unknown) => {
        if (!isNotFound(err)) throw err;
      });
}
