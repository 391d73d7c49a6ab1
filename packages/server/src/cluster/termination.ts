/**
 * Graceful termination by the simulated kubelets: a deleted pod's containers get SIGTERM; those that
 * handle it stop after their behaviour's stopMs (exit 0; killed, 137, should that outlast the grace
 * period), those that ignore it are killed when the pod's grace period
 * (metadata.deletionGracePeriodSeconds) has passed (exit 137). The kubelet then reports the pod
 * finished (Succeeded when every container exited 0, else Failed) and deletes it for good, with
 * grace period 0 and the pod's uid as precondition, as a kubelet does.
 */
import type { coreV1 } from "@kubesdk/models";
import type { ClusterAccess } from "./objects.js";
import type { PodLifecycle } from "./pod-lifecycle.js";
import { podStatus } from "./pod-status.js";

type Pod = coreV1.Pod & { metadata: { name?: string; uid?: string } };

const KILLED = 137;

export class Termination {
  /** When the kubelet saw each deleted pod (by uid): the grace period counts from there. */
  private readonly since = new Map<string, number>();

  constructor(
    private readonly access: ClusterAccess,
    private readonly lifecycle: PodLifecycle,
    private readonly later: (key: string, ms: number) => void,
  ) {}

  async sync(key: string, pod: Pod): Promise<void> {
    const uid = String(pod.metadata.uid);
    const now = this.access.ctx.now();
    const seen = this.since.get(uid) ?? now;
    this.since.set(uid, seen);
    const phase = pod.status?.phase;
    const finished = phase === "Succeeded" || phase === "Failed";
    const started = phase === "Running";
    if (started && !finished) {
      const b = this.lifecycle.behaviour(pod);
      const graceMs = (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
      const stopsIn = b.ignoresSigterm ? graceMs : Math.min(b.stopMs, graceMs);
      if (now < seen + stopsIn) return this.later(key, seen + stopsIn - now);
      await this.report(pod, b.ignoresSigterm || b.stopMs > graceMs ? KILLED : 0);
      return;
    }
    this.since.delete(uid);
    this.lifecycle.forget(uid);
    await this.access.delete("pods", pod.metadata, 0);
  }

  /** Writes the final status; the event of that write brings the pod back for the last delete. */
  private async report(pod: Pod, exitCode: number): Promise<void> {
    const at = this.access.now();
    const since = pod.status?.startTime ?? at;
    const hostIP = pod.status?.hostIP ?? "";
    const status = podStatus(pod, {
      now: at,
      hostIP,
      podIP: pod.status?.podIP ?? "",
      phase: exitCode === 0 ? "Succeeded" : "Failed",
      containers: { kind: "terminated", exitCode, since, at },
      ready: false,
      restartCount: pod.status?.containerStatuses?.[0]?.restartCount ?? 0,
    });
    await this.access.update("pods", { ...pod, status }, "status");
  }
}
