/**
 * The status a simulated kubelet reports for a pod at each point of its life: Running (containers
 * started, podIP, startTime), Ready or not, restarting after an exit, and finished (Succeeded or
 * Failed with the containers' exit codes). Pure functions of the pod and what happened to it.
 */
import type { coreV1 } from "@kubesdk/models";
import { withCondition } from "./objects.js";

export type ContainerPhase =
  | { readonly kind: "running"; readonly since: string }
  /** Not running: CrashLoopBackOff between restarts, ImagePullBackOff when the image cannot be pulled. */
  | { readonly kind: "waiting"; readonly reason: string; readonly message: string }
  | { readonly kind: "terminated"; readonly exitCode: number; readonly since: string; readonly at: string };

export interface PodFacts {
  readonly now: string;
  readonly hostIP: string;
  readonly podIP: string;
  readonly phase: "Pending" | "Running" | "Succeeded" | "Failed";
  readonly containers: ContainerPhase;
  readonly ready: boolean;
  readonly restartCount: number;
  /** How the previous instance ended (after a restart). */
  readonly lastExit?: { readonly exitCode: number; readonly since: string; readonly at: string };
}

function terminated(exitCode: number, since: string, at: string) {
  return { exitCode, reason: exitCode === 0 ? "Completed" : "Error", startedAt: since, finishedAt: at };
}

function containerState(p: ContainerPhase): coreV1.ContainerState {
  if (p.kind === "running") return { running: { startedAt: p.since } };
  if (p.kind === "waiting") return { waiting: { reason: p.reason, message: p.message } };
  return { terminated: terminated(p.exitCode, p.since, p.at) };
}

function containerStatus(c: coreV1.Container, facts: PodFacts): coreV1.ContainerStatus {
  const running = facts.containers.kind === "running";
  // A container whose image was never pulled has neither an image ID nor a container ID.
  const created = facts.phase !== "Pending";
  return {
    name: c.name,
    image: c.image ?? "",
    imageID: created ? `docker.io/library/${c.image ?? ""}@sha256:${"0".repeat(64)}` : "",
    ...(created ? { containerID: `kubesdk://${c.name}-${facts.restartCount}` } : {}),
    ready: running && facts.ready,
    started: running,
    restartCount: facts.restartCount,
    state: containerState(facts.containers),
    ...(facts.lastExit
      ? {
          lastState: {
            terminated: terminated(facts.lastExit.exitCode, facts.lastExit.since, facts.lastExit.at),
          },
        }
      : { lastState: {} }),
  };
}

function condition(type: string, ok: boolean, now: string, reason?: string): coreV1.PodCondition {
  return {
    type,
    status: ok ? "True" : "False",
    lastTransitionTime: now,
    ...(ok || !reason ? {} : { reason }),
  };
}

/** The pod's status for these facts, keeping what else the status holds (e.g. a DisruptionTarget). */
export function podStatus(pod: coreV1.Pod, facts: PodFacts): coreV1.PodStatus {
  const finished = facts.phase === "Succeeded" || facts.phase === "Failed";
  const ready = !finished && facts.ready && facts.containers.kind === "running";
  const notReadyReason = finished ? "PodCompleted" : "ContainersNotReady";
  let conditions = pod.status?.conditions ?? [];
  conditions = withCondition(conditions, condition("PodReadyToStartContainers", !finished, facts.now));
  conditions = withCondition(conditions, condition("Initialized", true, facts.now));
  conditions = withCondition(conditions, condition("Ready", ready, facts.now, notReadyReason));
  conditions = withCondition(conditions, condition("ContainersReady", ready, facts.now, notReadyReason));
  conditions = withCondition(conditions, condition("PodScheduled", true, facts.now));
  const old = pod.status ?? {};
  return {
    ...old,
    phase: facts.phase,
    conditions,
    hostIP: facts.hostIP,
    hostIPs: [{ ip: facts.hostIP }],
    podIP: facts.podIP,
    podIPs: [{ ip: facts.podIP }],
    startTime: old.startTime ?? facts.now,
    // The spec generation this status reflects (a kubelet reports it since 1.34).
    ...(typeof pod.metadata?.generation === "number" ? { observedGeneration: pod.metadata.generation } : {}),
    containerStatuses: (pod.spec?.containers ?? []).map((c) => containerStatus(c, facts)),
  };
}
