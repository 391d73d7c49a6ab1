/**
 * The WebApp operator: for each WebApp it server-side-applies a Deployment and a Service it
 * controls, reports conditions through the status subresource, and holds deletion with a
 * finalizer until its cleanup (deleting what it made, for clusters without a garbage collector)
 * has run.
 */
import type { ApplyConfiguration, KubeClient } from "@kubesdk/client";
import {
  Action,
  applyStatus,
  Controller,
  type ControllerOptions,
  controllerReference,
  type EventRecorder,
  generationChanged,
  type Logger,
  setCondition,
  withFinalizer,
} from "@kubesdk/controller";
import type { appsV1, coreV1 } from "@kubesdk/models";
import { isNotFound } from "@kubesdk/transport";
import { type WebApp, type WebAppStatus, webApps } from "./webapp.js";

export const FIELD_MANAGER = "webapp-operator";
export const FINALIZER = "example.kubesdk.io/cleanup";

export interface WebAppOperatorOptions {
  readonly kube: KubeClient;
  /** Watch one namespace (default: all). */
  readonly namespace?: string;
  readonly concurrency?: number;
  readonly logger?: Logger;
  readonly events?: EventRecorder;
  /** Runs before the finalizer's cleanup (tests hold it to observe the blocked deletion). */
  readonly beforeCleanup?: (app: WebApp) => Promise<void> | void;
  /** Extra controller options (metrics, clock, informers, …). */
  readonly controller?: Partial<ControllerOptions<WebApp>>;
}

function labelsOf(app: WebApp): Record<string, string> {
  return {
    "app.kubernetes.io/name": app.metadata?.name ?? "",
    "app.kubernetes.io/managed-by": FIELD_MANAGER,
  };
}

function deploymentFor(app: WebApp): ApplyConfiguration<appsV1.Deployment> {
  const labels = labelsOf(app);
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: {
      name: app.metadata?.name ?? "",
      namespace: app.metadata?.namespace,
      labels,
      ownerReferences: [controllerReference(app)],
    },
    spec: {
      replicas: app.spec.replicas ?? 1,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            { name: "web", image: app.spec.image, ports: [{ containerPort: app.spec.port ?? 8080 }] },
          ],
        },
      },
    },
  };
}

function serviceFor(app: WebApp): ApplyConfiguration<coreV1.Service> {
  const labels = labelsOf(app);
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: {
      name: app.metadata?.name ?? "",
      namespace: app.metadata?.namespace,
      labels,
      ownerReferences: [controllerReference(app)],
    },
    spec: { selector: labels, ports: [{ name: "http", port: 80, targetPort: app.spec.port ?? 8080 }] },
  };
}

/** What the reconcile steps share. */
interface Context {
  readonly options: WebAppOperatorOptions;
  readonly apps: ReturnType<typeof webApps>;
  readonly deployments: ReturnType<KubeClient["resource"]>;
  readonly services: ReturnType<KubeClient["resource"]>;
}

function statusFor(app: WebApp, ready: number): WebAppStatus {
  const replicas = app.spec.replicas ?? 1;
  const generation = app.metadata?.generation;
  const observed = generation !== undefined ? { observedGeneration: generation } : {};
  let conditions = setCondition(app.status?.conditions, {
    type: "Reconciled",
    status: "True",
    reason: "Applied",
    message: "Deployment and Service are applied",
    ...observed,
  });
  conditions = setCondition(conditions, {
    type: "Available",
    status: ready >= replicas ? "True" : "False",
    reason: ready >= replicas ? "MinimumReplicasAvailable" : "ReplicasUnavailable",
    message: `${ready}/${replicas} replicas available`,
    ...observed,
  });
  return { readyReplicas: ready, conditions, ...observed };
}

/** Applies the Deployment and the Service, then the status. */
async function applyWebApp(ctx: Context, app: WebApp, signal: AbortSignal): Promise<undefined> {
  const write = { fieldManager: FIELD_MANAGER, force: true, namespace: app.metadata?.namespace, signal };
  const deployments = ctx.options.kube.resource("apps/v1", "Deployment");
  const deployment = await deployments.apply(deploymentFor(app), write);
  await ctx.options.kube.resource("v1", "Service").apply(serviceFor(app), write);
  const ready = deployment.status?.availableReplicas ?? 0;
  await applyStatus(ctx.apps, app, statusFor(app, ready), { fieldManager: FIELD_MANAGER, signal });
  ctx.options.events?.emit(app, {
    type: "Normal",
    reason: "Reconciled",
    action: "Apply",
    note: `${ready}/${app.spec.replicas ?? 1} replicas available`,
  });
  return undefined;
}

/** The finalizer's cleanup: deletes the Deployment and the Service. */
async function cleanupWebApp(ctx: Context, app: WebApp, signal: AbortSignal): Promise<void> {
  await ctx.options.beforeCleanup?.(app);
  const name = app.metadata?.name ?? "";
  const namespace = app.metadata?.namespace;
  for (const client of [ctx.deployments, ctx.services]) {
    try {
      await client.delete(name, { namespace, signal });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  ctx.options.events?.emit(app, {
    type: "Normal",
    reason: "CleanedUp",
    action: "Delete",
    note: "Deployment and Service deleted",
  });
}

export function createWebAppController(options: WebAppOperatorOptions): Controller<WebApp> {
  const { kube } = options;
  const ctx: Context = {
    options,
    apps: webApps(kube),
    deployments: kube.resource("apps/v1", "Deployment"),
    services: kube.resource("v1", "Service"),
  };
  return new Controller<WebApp>({
    name: "webapp",
    kube,
    resource: ctx.apps,
    ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
    predicates: [generationChanged()],
    owns: [{ resource: ctx.deployments }, { resource: ctx.services }],
    concurrency: options.concurrency ?? 2,
    ...(options.logger ? { logger: options.logger } : {}),
    ...options.controller,
    reconcile: async ({ object, signal }) => {
      if (object === undefined) return Action.done();
      const handlers = {
        apply: (app: WebApp) => applyWebApp(ctx, app, signal),
        cleanup: (app: WebApp) => cleanupWebApp(ctx, app, signal),
      };
      return withFinalizer(ctx.apps, object, FINALIZER, handlers, signal);
    },
  });
}
