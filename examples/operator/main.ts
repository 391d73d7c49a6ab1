/**
 * Runs the WebApp operator.
 *
 *   pnpm example:operator                        embedded reference server, sample WebApp "hello"
 *   pnpm example:operator --kubeconfig ~/.kube/config [--namespace demo]
 *   options: --port N (operations endpoint, default 8080), --no-leader-elect,
 *   --webhook-port N (default 9443), --webhook-host NAME (what the API server dials, default
 *   127.0.0.1), --webhook-service namespace/name[:port] (in a cluster), --once (create the sample,
 *   wait until it converged, delete it, exit)
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { condition, deleted, Kube } from "@kubesdk/client";
import { EventRecorder, Manager, PrometheusMetrics, serveOperations } from "@kubesdk/controller";
import { startServer } from "@kubesdk/server";
import { createWebAppController } from "./operator.js";
import { type WebAppV1alpha1, webAppDefinition, webApps } from "./webapp.js";
import {
  createWebAppWebhooks,
  parseService,
  registerWebAppWebhooks,
  unregisterWebAppWebhooks,
  type WebhookAddress,
} from "./webhooks.js";

const { values } = parseArgs({
  options: {
    kubeconfig: { type: "string" },
    namespace: { type: "string" },
    port: { type: "string", default: "8080" },
    "webhook-port": { type: "string", default: "9443" },
    "webhook-host": { type: "string" },
    "webhook-service": { type: "string" },
    "no-leader-elect": { type: "boolean", default: false },
    once: { type: "boolean", default: false },
  },
});

async function connect(): Promise<{ kube: Kube; stopServer?: () => Promise<void> }> {
  if (values.kubeconfig !== undefined)
    return { kube: await Kube.fromKubeconfig({ kubeconfig: { path: values.kubeconfig } }) };
  const kubeconfigPath = join(mkdtempSync(join(tmpdir(), "webapp-operator-")), "kubeconfig");
  const server = await startServer({ kubeconfigPath });
  console.log(`embedded reference server at ${server.url} (kubeconfig ${kubeconfigPath})`);
  const kube = await Kube.fromKubeconfig({ kubeconfig: { path: kubeconfigPath } });
  return { kube, stopServer: () => server.stop() };
}

async function ensureNamespace(kube: Kube, namespace: string): Promise<void> {
  await kube
    .resource("v1", "Namespace")
    .apply(
      { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } },
      { fieldManager: "example", conflicts: "force" },
    );
}

/** The sample, written in the old version without replicas: the webhooks default and convert it. */
async function createSample(kube: Kube, namespace: string): Promise<void> {
  const sample: WebAppV1alpha1 = {
    apiVersion: `${webAppDefinition.group}/v1alpha1`,
    kind: webAppDefinition.kind,
    metadata: { name: "hello", namespace },
    spec: { image: "nginx:1.27", port: 8080 },
  };
  await kube
    .custom(webAppDefinition, "v1alpha1")
    .apply(sample as never, { fieldManager: "example", conflicts: "force", namespace });
  console.log(`created WebApp ${namespace}/hello as v1alpha1: ${JSON.stringify(sample.spec)}`);
}

function webhookAddress(): WebhookAddress {
  const service = values["webhook-service"];
  return {
    port: Number(values["webhook-port"]),
    ...(values["webhook-host"] !== undefined ? { host: values["webhook-host"] } : {}),
    ...(service !== undefined ? { service: parseService(service) } : {}),
  };
}

function createManager(kube: Kube, namespace: string, embedded: boolean) {
  const identity = `webapp-operator-${process.pid}`;
  const metrics = new PrometheusMetrics();
  const events = new EventRecorder({
    kube,
    reportingController: "example.kubesdk.io/webapp-operator",
    reportingInstance: identity,
  });
  const manager = new Manager({
    kube,
    ...(values["no-leader-elect"]
      ? {}
      : { leaderElection: { name: "webapp-operator", namespace, identity } }),
    onLeaderChange: (leading) => {
      metrics.leader("webapp-operator", leading);
      console.log(leading ? `${identity} leads` : `${identity} stopped leading`);
    },
  });
  createWebAppController(manager, {
    ...(values.namespace !== undefined || embedded ? { namespace } : {}),
    events,
    controller: { metrics },
  });
  return { manager, metrics, events };
}

async function main(): Promise<void> {
  const { kube, stopServer } = await connect();
  const namespace = values.namespace ?? (stopServer ? "demo" : kube.namespace);
  const withSample = stopServer !== undefined || values.once;
  // The Lease and the sample live in the namespace: create it before the manager starts.
  if (withSample) await ensureNamespace(kube, namespace);
  const { manager, metrics, events } = createManager(kube, namespace, stopServer !== undefined);
  const address = webhookAddress();
  const webhooks = createWebAppWebhooks(manager, address);
  const ops = await serveOperations(manager, { port: Number(values.port), metrics });
  console.log(`operations endpoint: ${ops.url}/healthz ${ops.url}/readyz ${ops.url}/metrics`);
  const shutdown = async () => {
    await unregisterWebAppWebhooks(kube);
    await manager.stop();
    await events.close();
    await ops.close();
    await kube.close();
    await stopServer?.();
  };
  manager.handleSignals(() => {
    console.log("stopped gracefully");
    void shutdown().then(() => process.exit(0));
  });
  // The webhook server starts first: its port and CA go into the CRD's conversion stanza and the
  // admission configurations, and the CRD must be there before the controller lists WebApps.
  await webhooks.start();
  const endpoint = await registerWebAppWebhooks(kube, webhooks, address);
  const where = "url" in endpoint ? endpoint.url : `Service ${JSON.stringify(endpoint.service)}`;
  console.log(
    `webhooks listen at ${webhooks.url}, registered at ${where} (defaulting, validation, conversion)`,
  );
  await manager.start();
  if (withSample) await createSample(kube, namespace);
  if (values.once) {
    await showConverged(kube, namespace);
    await deleteSample(kube, namespace);
    await shutdown();
  }
}

/** Follows the sample through a watch until its status reports Reconciled; prints it in both versions. */
async function showConverged(kube: Kube, namespace: string): Promise<void> {
  const current = await kube.waitFor(webApps(kube), "hello", condition("Reconciled"), { namespace });
  const old = await kube.custom(webAppDefinition, "v1alpha1").get("hello", { namespace });
  const deployment = await kube.resource("apps/v1", "Deployment").get("hello", { namespace });
  const service = await kube.resource("v1", "Service").get("hello", { namespace });
  console.log(`WebApp ${namespace}/hello read as v1: ${JSON.stringify(current?.spec)}`);
  console.log(`WebApp ${namespace}/hello read as v1alpha1: ${JSON.stringify(old.spec)}`);
  console.log(`WebApp ${namespace}/hello status: ${JSON.stringify(current?.status)}`);
  console.log(
    `owned: Deployment ${deployment.metadata?.name} (replicas ${deployment.spec?.replicas}), Service ${service.metadata?.name} (port ${service.spec?.ports?.[0]?.port})`,
  );
}

/** Deletes the sample and waits until the operator's finalizer let it go. */
async function deleteSample(kube: Kube, namespace: string): Promise<void> {
  await webApps(kube).delete("hello", { namespace });
  await kube.waitFor(webApps(kube), "hello", deleted(), { namespace });
  console.log(`WebApp ${namespace}/hello deleted after the operator's cleanup`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
