/**
 * The simulated cluster of the reference server (on unless `cluster: false`): kubelets for the
 * configured nodes (node status and Lease heartbeats, pod lifecycle, graceful termination) and —
 * unless `controllers: false`, when a real kube-scheduler and kube-controller-manager do that work —
 * the scheduler, the node lifecycle and pod garbage collection, and the ReplicaSet, Deployment,
 * Job, StatefulSet and DaemonSet controllers.
 */
import type { HandlerContext } from "../endpoints/handlers/context.js";
import type { PodBehaviours } from "./behaviour.js";
import { DaemonSetController } from "./daemonsets.js";
import { DeploymentController } from "./deployments.js";
import { JobController } from "./jobs.js";
import { SimulatedKubelets } from "./kubelet.js";
import type { SimulatedNodeConfig } from "./node-agent.js";
import { NodeLifecycle } from "./node-lifecycle.js";
import { ClusterAccess } from "./objects.js";
import type { ClusterOptions } from "./options.js";
import { ReplicaSetController } from "./replicasets.js";
import { Scheduler } from "./scheduler.js";
import { StatefulSetController } from "./statefulsets.js";

export { type PodBehaviour, PodBehaviours, type PodStage } from "./behaviour.js";
export { parseClusterDocument } from "./cluster-document.js";
export type { SimulatedNodeConfig } from "./node-agent.js";
export type { ClusterOptions } from "./options.js";

/** The nodes of the simulated cluster, for tests: add one, lose one (its kubelet stops), bring it back. */
export interface SimulatedNodes {
  add(config: SimulatedNodeConfig): void;
  /** The node's kubelet stops: no heartbeats, its pods are left as they are. */
  stop(name: string): void;
  /** The node's kubelet runs again: Ready, heartbeats, its pods go on. */
  start(name: string): void;
}

export interface SimulatedCluster {
  readonly nodes: SimulatedNodes;
  close(): void;
}

export const DEFAULT_NODES: readonly SimulatedNodeConfig[] = [{ name: "node-1" }];

export function startCluster(
  ctx: HandlerContext,
  options: ClusterOptions,
  behaviours: PodBehaviours,
  withControllers: boolean,
  log?: (line: string) => void,
): SimulatedCluster {
  const timing = {
    restartBackoffMs: options.restartBackoffMs ?? 100,
    maxRestartBackoffMs: options.maxRestartBackoffMs ?? 10_000,
  };
  const kubelets = new SimulatedKubelets(
    // In process, the kubelets' start-up writes may be committed from templates (node-templates.ts).
    new ClusterAccess(ctx, "kubelet", true),
    {
      nodes: options.nodes ?? DEFAULT_NODES,
      heartbeatMs: options.heartbeatMs ?? 10_000,
      behaviours,
      ...timing,
    },
    log,
  );
  // The node lifecycle's untaint of a templated node may be a template too (node-templates.ts).
  const kcm = new ClusterAccess(ctx, "kube-controller-manager", true);
  const controllers = withControllers
    ? [
        new Scheduler(new ClusterAccess(ctx, "kube-scheduler"), log),
        new NodeLifecycle(kcm, options.nodeMonitorGraceMs ?? 40_000, log),
        new ReplicaSetController(kcm, log),
        new DeploymentController(kcm, log),
        new JobController(kcm, timing, log),
        new StatefulSetController(kcm, log),
        new DaemonSetController(kcm, log),
      ]
    : [];
  return {
    nodes: {
      add: (config) => kubelets.nodes.add(config),
      stop: (name) => kubelets.nodes.stop(name),
      start: (name) => {
        kubelets.nodes.start(name);
        kubelets.resyncPods();
      },
    },
    close() {
      kubelets.close();
      for (const c of controllers) c.close();
    },
  };
}
