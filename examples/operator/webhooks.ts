/**
 * The WebApp operator's admission webhooks: a defaulting one (replicas 1, port 8080) and a
 * validating one (the image names a tag other than latest, or a digest), served by the manager's
 * webhook server and registered with the API server by URL with the server's own CA.
 */
import type { Kube } from "@kubesdk/client";
import { deny, type Manager, type WebhookServer } from "@kubesdk/controller";
import { isNotFound } from "@kubesdk/transport";
import { GROUP, KIND, PLURAL, VERSION, type WebApp } from "./webapp.js";

const target = { group: GROUP, version: VERSION, kind: KIND, resource: PLURAL, namespaced: true };
export const WEBHOOK_CONFIGURATION = "webapp-operator";

/** Creates the manager's webhook server (self-signed, on the loopback) with the two handlers. */
export function createWebAppWebhooks(manager: Manager, port: number): WebhookServer {
  const server = manager.webhooks({ port, tls: { selfSigned: { hosts: ["127.0.0.1", "localhost"] } } });
  server.mutating<WebApp>(target, (app) => {
    app.spec.replicas ??= 1;
    app.spec.port ??= 8080;
    return app;
  });
  server.validating<WebApp>(target, ({ object }) => {
    const image = object?.spec.image ?? "";
    if (!image.includes("@") && (!/:[^/]+$/.test(image) || image.endsWith(":latest")))
      return deny(`spec.image ${JSON.stringify(image)}: name a tag other than latest, or a digest`);
    return undefined;
  });
  return server;
}

const paths = {
  ValidatingWebhookConfiguration: "validatingWebhookConfiguration",
  MutatingWebhookConfiguration: "mutatingWebhookConfiguration",
} as const;

/**
 * Registers both configurations; false when the server does not serve them. They point at this
 * process, so `unregisterWebAppWebhooks` removes them when it stops.
 */
export async function registerWebAppWebhooks(kube: Kube, server: WebhookServer): Promise<boolean> {
  try {
    for (const kind of Object.keys(paths) as (keyof typeof paths)[]) {
      const config = server[paths[kind]](WEBHOOK_CONFIGURATION);
      await kube
        .resource("admissionregistration.k8s.io/v1", kind)
        .apply(config as never, { fieldManager: "webapp-operator", force: true });
    }
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
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
