/**
 * Runs the WebApp operator.
 *
 *   pnpm example:operator                        embedded reference server, sample WebApp "hello"
 *   pnpm example:operator --kubeconfig ~/.kube/config [--namespace demo]
 *   options: --port N (operations endpoint, default 8080), --no-leader-elect, --once (exit after
 *   the sample converged; embedded server only)
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { condition, Kube } from "@kubesdk/client";
import { EventRecorder, Manager, PrometheusMetrics, serveOperations } from "@kubesdk/controller";
import { startServer } from "@kubesdk/server";
import { createWebAppController } from "./operator.js";
import { API_VERSION, installWebAppCrd, KIND, type WebApp, webApps } from "./webapp.js";
import { createWebAppWebhooks, registerWebAppWebhooks, unregisterWebAppWebhooks } from "./webhooks.js";

const { values } = parseArgs({
  options: {
    kubeconfig: { type: "string" },
    namespace: { type: "string" },
    port: { type: "string", default: "8080" },
    "webhook-port": { type: "string", default: "9443" },
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

async function createSample(kube: Kube, namespace: string): Promise<void> {
  await kube
    .resource("v1", "Namespace")
    .apply(
      { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } },
      { fieldManager: "example", force: true },
    );
  const sample: WebApp = {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: { name: "hello", namespace },
    spec: { image: "nginx:1.27", replicas: 2, port: 8080 },
  };
  await webApps(kube).apply(sample as never, { fieldManager: "example", force: true, namespace });
  console.log(`created WebApp ${namespace}/hello`);
}

async function main(): Promise<void> {
  const { kube, stopServer } = await connect();
  const namespace = values.namespace ?? (stopServer ? "demo" : kube.namespace);
  await installWebAppCrd(kube);
  if (stopServer) await createSample(kube, namespace);
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
    ...(values.namespace !== undefined || stopServer ? { namespace } : {}),
    events,
    controller: { metrics },
  });
  const webhooks = createWebAppWebhooks(manager, values.once ? 0 : Number(values["webhook-port"]));
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
  await manager.start();
  const registered = await registerWebAppWebhooks(kube, webhooks);
  console.log(
    registered
      ? `webhooks at ${webhooks.url} registered (defaulting and validation of WebApps)`
      : "this API server serves no webhook configurations: webhooks not registered",
  );
  if (values.once && stopServer) {
    await waitForReconciled(kube, namespace);
    await shutdown();
  }
}

/** Follows the sample through a watch until its status reports the Reconciled condition. */
async function waitForReconciled(kube: Kube, namespace: string): Promise<void> {
  const current = await kube.waitFor(webApps(kube), "hello", condition("Reconciled"), { namespace });
  const deployment = await kube.resource("apps/v1", "Deployment").get("hello", { namespace });
  const service = await kube.resource("v1", "Service").get("hello", { namespace });
  console.log(`WebApp ${namespace}/hello status: ${JSON.stringify(current?.status)}`);
  console.log(
    `owned: Deployment ${deployment.metadata?.name} (replicas ${deployment.spec?.replicas}), Service ${service.metadata?.name} (port ${service.spec?.ports?.[0]?.port})`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
