/**
 * The WebApp operator: for each WebApp it server-side-applies a Deployment and a Service it
 * controls, reports conditions through the status subresource, and holds deletion with a
 * finalizer until its cleanup (deleting what it made, for clusters without a garbage collector)
 * has run.
 */
import type { ApplyConfiguration, Kube } from "@kubesdk/client";
import {
  Action,
  applyStatus,
  type Controller,
  controllerReference,
  type EventRecorder,
  type Fence,
  fencedApply,
  generationChanged,
  type Logger,
  type ManagedControllerOptions,
  type Manager,
  setCondition,
  withFinalizer,
} from "@kubesdk/controller";
import type { appsV1, coreV1 } from "@kubesdk/models";
import { isNotFound } from "@kubesdk/transport";
import { type WebApp, type WebAppStatus, webApps } from "./webapp.js";

export const FIELD_MANAGER = "webapp-operator";
export const FINALIZER = "example.kubesdk.io/cleanup";

export interface WebAppOperatorOptions {
  /** Watch one namespace (default: all). */
  readonly namespace?: string;
  readonly concurrency?: number;
  readonly logger?: Logger;
  readonly events?: EventRecorder;
  /** Runs before the finalizer's cleanup (tests hold it to observe the blocked deletion). */
  readonly beforeCleanup?: (app: WebApp) => Promise<void> | void;
  /** Extra controller options (metrics, clock, …). */
  readonly controller?: Partial<ManagedControllerOptions<WebApp>>;
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
            { name: "web", image: app.spec.image, ports: [{ containerPort: app.spec.http?.port ?? 8080 }] },
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
    spec: { selector: labels, ports: [{ name: "http", port: 80, targetPort: app.spec.http?.port ?? 8080 }] },
  };
}

/** What the reconcile steps share. */
interface Context {
  readonly kube: Kube;
  readonly options: WebAppOperatorOptions;
  readonly apps: ReturnType<typeof webApps>;
  readonly deployments: ReturnType<Kube["resource"]>;
  readonly services: ReturnType<Kube["resource"]>;
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

/**
 * Applies the Deployment and the Service, then the status. Every write passes the reconcile request
 * as its fence: once this process's leadership lapsed, none of them goes out.
 */
async function applyWebApp(ctx: Context, app: WebApp, fence: Fence): Promise<undefined> {
  const write = {
    fieldManager: FIELD_MANAGER,
    conflicts: "force" as const,
    namespace: app.metadata?.namespace,
    fence,
  };
  const deployment = await fencedApply(ctx.deployments, deploymentFor(app), write);
  await fencedApply(ctx.services, serviceFor(app), write);
  const ready = deployment.status?.availableReplicas ?? 0;
  await applyStatus(ctx.apps, app, statusFor(app, ready), { fieldManager: FIELD_MANAGER, fence });
  ctx.options.events?.emit(
    app,
    {
      type: "Normal",
      reason: "Reconciled",
      action: "Apply",
      note: `${ready}/${app.spec.replicas ?? 1} replicas available`,
    },
    fence,
  );
  return undefined;
}

/** The finalizer's cleanup: deletes the Deployment and the Service. */
async function cleanupWebApp(ctx: Context, app: WebApp, fence: Fence): Promise<void> {
  await ctx.options.beforeCleanup?.(app);
  const name = app.metadata?.name ?? "";
  const namespace = app.metadata?.namespace;
  for (const client of [ctx.deployments, ctx.services]) {
    try {
      fence.check();
      await client.delete(name, { namespace, signal: fence.signal });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  ctx.options.events?.emit(
    app,
    {
      type: "Normal",
      reason: "CleanedUp",
      action: "Delete",
      note: "Deployment and Service deleted",
    },
    fence,
  );
}

/** Creates the WebApp controller on `manager` (its client, informers and leadership). */
export function createWebAppController(
  manager: Manager,
  options: WebAppOperatorOptions = {},
): Controller<WebApp> {
  const { kube } = manager;
  const ctx: Context = {
    kube,
    options,
    apps: webApps(kube),
    deployments: kube.resource("apps/v1", "Deployment"),
    services: kube.resource("v1", "Service"),
  };
  return manager.controller<WebApp>({
    name: "webapp",
    resource: ctx.apps,
    ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
    predicates: [generationChanged()],
    owns: [{ resource: ctx.deployments }, { resource: ctx.services }],
    concurrency: options.concurrency ?? 2,
    ...(options.logger ? { logger: options.logger } : {}),
    ...options.controller,
    reconcile: async (request) => {
      const { object } = request;
      if (object === undefined) return Action.done();
      const handlers = {
        apply: (app: WebApp) => applyWebApp(ctx, app, request),
        cleanup: (app: WebApp) => cleanupWebApp(ctx, app, request),
      };
      return withFinalizer(ctx.apps, object, FINALIZER, handlers, request);
    },
  });
}
