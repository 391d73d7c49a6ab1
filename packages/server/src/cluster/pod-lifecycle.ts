/**
 * The pod half of the simulated kubelets: a pod bound to a node this cluster runs goes Pending →
 * Running (after its start delay) → Ready (after its readiness delay, if its probes succeed), and,
 * if its containers exit, is restarted by its restartPolicy with a doubling back-off, or ends
 * Succeeded or Failed. Deleted pods are handled by termination.ts. What a pod does is its behaviour
 * (behaviour.ts); the timers of each pod are kept here, keyed by the pod's uid.
 */
import type { coreV1 } from "@kubesdk/models";
import { behaviourOf, type PodBehaviour, type PodStage, type ResolvedBehaviour } from "./behaviour.js";
import type { NodeAgent } from "./node-agent.js";
import type { ClusterAccess } from "./objects.js";
import { type ContainerPhase, type PodFacts, podStatus } from "./pod-status.js";

type Pod = coreV1.Pod & { metadata: { name?: string; uid?: string } };

export interface LifecycleTiming {
  /** First restart back-off; each restart doubles it (upstream: 10 s). */
  readonly restartBackoffMs: number;
  /** Longest restart back-off (upstream: 5 min). */
  readonly maxRestartBackoffMs: number;
}

/** What happened to one pod's containers so far. */
interface Run {
  startedAt: number;
  restarts: number;
  lastExit?: { exitCode: number; since: string; at: string };
  /** Set while the containers wait out a restart back-off. */
  restartAt?: number;
  podIP: string;
}

const ipOf = (node: number, n: number) => `10.244.${node}.${(n % 250) + 2}`;

export class PodLifecycle {
  private readonly runs = new Map<string, Run>();
  /** When each pod (by uid) was first seen bound to a node: its start delay counts from there. */
  private readonly seen = new Map<string, number>();
  private ips = 0;

  constructor(
    private readonly access: ClusterAccess,
    private readonly nodes: NodeAgent,
    private readonly stages: () => readonly PodStage[],
    private readonly own: (pod: Pod) => PodBehaviour | undefined,
    private readonly timing: LifecycleTiming,
    private readonly later: (key: string, ms: number) => void,
  ) {}

  behaviour(pod: Pod): ResolvedBehaviour {
    return behaviourOf(pod, this.stages(), this.own(pod));
  }

  forget(uid: string): void {
    this.runs.delete(uid);
    this.seen.delete(uid);
  }

  /** Moves a live pod on as far as its behaviour says it has come by now. */
  async sync(key: string, pod: Pod): Promise<void> {
    const phase = pod.status?.phase;
    if (phase === "Succeeded" || phase === "Failed") return;
    const b = this.behaviour(pod);
    const now = this.access.ctx.now();
    const uid = String(pod.metadata.uid);
    let run = this.runs.get(uid);
    if (!run) {
      const boundAt = this.seen.get(uid) ?? now;
      this.seen.set(uid, boundAt);
      if (now < boundAt + b.startMs) return this.later(key, boundAt + b.startMs - now);
      const node = this.nodes.indexOf(String(pod.spec?.nodeName));
      run = { startedAt: now, restarts: 0, podIP: pod.status?.podIP ?? ipOf(node, this.ips++) };
      this.runs.set(uid, run);
    }
    const overdue = this.pastDeadline(key, pod, now);
    const facts = overdue ? this.killed(pod, run) : this.facts(key, pod, b, run, now);
    const status = overdue ? { ...podStatus(pod, facts), ...DEADLINE_EXCEEDED } : podStatus(pod, facts);
    if (JSON.stringify(comparable(status)) === JSON.stringify(comparable(pod.status ?? {}))) return;
    await this.access.update("pods", { ...pod, status }, "status");
  }

  /**
   * Whether the pod has been active longer than `spec.activeDeadlineSeconds` (counted from its
   * startTime, as a kubelet counts); schedules a look at the deadline when it is still ahead.
   */
  private pastDeadline(key: string, pod: Pod, now: number): boolean {
    const seconds = pod.spec?.activeDeadlineSeconds;
    const start = Date.parse(pod.status?.startTime ?? "");
    if (typeof seconds !== "number" || Number.isNaN(start)) return false;
    const at = start + seconds * 1000;
    if (now < at) this.later(key, at - now);
    return now >= at;
  }

  /** The containers killed (as at the end of a grace period): the pod Failed. */
  private killed(pod: Pod, run: Run): PodFacts {
    const at = this.access.now();
    const since = new Date(run.startedAt).toISOString().replace(/\.\d{3}Z$/, "Z");
    return {
      now: at,
      hostIP: `192.168.0.${this.nodes.indexOf(String(pod.spec?.nodeName)) + 1}`,
      podIP: run.podIP,
      phase: "Failed",
      containers: { kind: "terminated", exitCode: KILLED_EXIT_CODE, since, at },
      ready: false,
      restartCount: run.restarts,
    };
  }

  /** Where the pod's containers are now; schedules the next change. */
  private facts(key: string, pod: Pod, b: ResolvedBehaviour, run: Run, now: number): PodFacts {
    const at = this.access.now();
    const base = {
      now: at,
      hostIP: `192.168.0.${this.nodes.indexOf(String(pod.spec?.nodeName)) + 1}`,
      podIP: run.podIP,
      restartCount: run.restarts,
      ...(run.lastExit ? { lastExit: run.lastExit } : {}),
    };
    if (b.imagePullFails) {
      const image = pod.spec?.containers?.[0]?.image ?? "";
      const message = `Back-off pulling image "${image}"`;
      const containers: ContainerPhase = { kind: "waiting", reason: "ImagePullBackOff", message };
      return { ...base, phase: "Pending", containers, ready: false };
    }
    if (run.restartAt !== undefined) {
      if (now < run.restartAt) {
        this.later(key, run.restartAt - now);
        const message = `back-off restarting failed container in pod ${pod.metadata.name}`;
        const containers: ContainerPhase = { kind: "waiting", reason: "CrashLoopBackOff", message };
        return { ...base, phase: "Running", containers, ready: false };
      }
      run.restartAt = undefined;
      run.startedAt = now;
    }
    const since = new Date(run.startedAt).toISOString().replace(/\.\d{3}Z$/, "Z");
    if (b.runMs !== undefined && now >= run.startedAt + b.runMs)
      return this.exited(key, pod, b, run, now, since);
    if (b.runMs !== undefined) this.later(key, run.startedAt + b.runMs - now);
    const readyAt = run.startedAt + b.readyMs;
    if (b.ready && now < readyAt) this.later(key, readyAt - now);
    const containers: ContainerPhase = { kind: "running", since };
    return { ...base, phase: "Running", containers, ready: b.ready && now >= readyAt };
  }

  /** The containers exited: restart them (restartPolicy) after a back-off, or finish the pod. */
  private exited(
    key: string,
    pod: Pod,
    b: ResolvedBehaviour,
    run: Run,
    now: number,
    since: string,
  ): PodFacts {
    const at = this.access.now();
    const policy = pod.spec?.restartPolicy ?? "Always";
    const restart = policy === "Always" || (policy === "OnFailure" && b.exitCode !== 0);
    const base = {
      now: at,
      hostIP: `192.168.0.${this.nodes.indexOf(String(pod.spec?.nodeName)) + 1}`,
      podIP: run.podIP,
    };
    if (!restart) {
      const containers: ContainerPhase = { kind: "terminated", exitCode: b.exitCode, since, at };
      const phase = b.exitCode === 0 ? "Succeeded" : "Failed";
      return {
        ...base,
        phase,
        containers,
        ready: false,
        restartCount: run.restarts,
        ...(run.lastExit ? { lastExit: run.lastExit } : {}),
      };
    }
    const backoff = Math.min(
      this.timing.restartBackoffMs * 2 ** run.restarts,
      this.timing.maxRestartBackoffMs,
    );
    run.restarts++;
    run.lastExit = { exitCode: b.exitCode, since, at };
    run.restartAt = now + backoff;
    this.later(key, backoff);
    const message = `back-off restarting failed container in pod ${pod.metadata.name}`;
    return {
      ...base,
      phase: "Running",
      containers: { kind: "waiting", reason: "CrashLoopBackOff", message },
      ready: false,
      restartCount: run.restarts,
      lastExit: run.lastExit,
    };
  }
}

/** A kubelet's words for a pod it ended at its active deadline. */
const DEADLINE_EXCEEDED = {
  reason: "DeadlineExceeded",
  message: "Pod was active on the node longer than the specified deadline",
};
/** A container killed with SIGKILL. */
const KILLED_EXIT_CODE = 137;

/** The status without its timestamps, to tell whether anything a reader cares about changed. */
function comparable(status: coreV1.PodStatus): unknown {
  return {
    phase: status.phase,
    reason: status.reason,
    podIP: status.podIP,
    observedGeneration: status.observedGeneration,
    conditions: (status.conditions ?? []).map((c) => [c.type, c.status]),
    containers: (status.containerStatuses ?? []).map((c) => [
      c.name,
      c.ready,
      c.restartCount,
      Object.keys(c.state ?? {}),
    ]),
  };
}
