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

export function createWebAppController(options: WebAppOperatorOptions): Controller<WebApp> {
  const { kube } = options;
  const apps = webApps(kube);
  const deployments = kube.resource("apps/v1", "Deployment");
  const services = kube.resource("v1", "Service");
  const write = { fieldManager: FIELD_MANAGER, force: true } as const;

  const apply = async (app: WebApp, signal: AbortSignal): Promise<undefined> => {
    const namespace = app.metadata?.namespace;
    const deployment = await deployments.apply(deploymentFor(app), { ...write, namespace, signal });
    await services.apply(serviceFor(app), { ...write, namespace, signal });
    const replicas = app.spec.replicas ?? 1;
    const ready = deployment.status?.availableReplicas ?? 0;
    const generation = app.metadata?.generation;
    let conditions = setCondition(app.status?.conditions, {
      type: "Reconciled",
      status: "True",
      reason: "Applied",
      message: "Deployment and Service are applied",
      ...(generation !== undefined ? { observedGeneration: generation } : {}),
    });
    conditions = setCondition(conditions, {
      type: "Available",
      status: ready >= replicas ? "True" : "False",
      reason: ready >= replicas ? "MinimumReplicasAvailable" : "ReplicasUnavailable",
      message: `${ready}/${replicas} replicas available`,
      ...(generation !== undefined ? { observedGeneration: generation } : {}),
    });
    const status: WebAppStatus = {
      readyReplicas: ready,
      conditions,
      ...(generation !== undefined ? { observedGeneration: generation } : {}),
    };
    await applyStatus(apps, app, status, { fieldManager: FIELD_MANAGER, signal });
    options.events?.emit(app, {
      type: "Normal",
      reason: "Reconciled",
      action: "Apply",
      note: `${ready}/${replicas} replicas available`,
    });
    return undefined;
  };

  const cleanup = async (app: WebApp, signal: AbortSignal) => {
    await options.beforeCleanup?.(app);
    const name = app.metadata?.name ?? "";
    const namespace = app.metadata?.namespace;
    for (const client of [deployments, services] as const) {
      try {
        await client.delete(name, { namespace, signal });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    options.events?.emit(app, {
      type: "Normal",
      reason: "CleanedUp",
      action: "Delete",
      note: "Deployment and Service deleted",
    });
  };

  return new Controller<WebApp>({
    name: "webapp",
    kube,
    resource: apps,
    ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
    predicates: [generationChanged()],
    owns: [{ resource: deployments }, { resource: services }],
    concurrency: options.concurrency ?? 2,
    ...(options.logger ? { logger: options.logger } : {}),
    ...options.controller,
    reconcile: async ({ object, signal }) => {
      if (object === undefined) return Action.done();
      return withFinalizer(
        apps,
        object,
        FINALIZER,
        {
          apply: (app) => apply(app, signal),
          cleanup: (app) => cleanup(app, signal),
        },
        signal,
      );
    },
  });
}
