/**
 * The simulated Job controller: runs up to `parallelism` pods until `completions` of them succeed
 * (Indexed jobs: one per completion index), re-creating failed ones after a doubling back-off until
 * more than `backoffLimit` have failed; then the job is finished with upstream's conditions —
 * SuccessCriteriaMet and Complete, or FailureTarget and Failed (BackoffLimitExceeded) — and its
 * remaining pods are deleted. Suspended jobs run nothing.
 */
import type { batchV1 } from "@kubesdk/models";
import { type ClusterAccess, withCondition } from "./objects.js";
import type { LifecycleTiming } from "./pod-lifecycle.js";
import {
  controlled,
  createPod,
  isActive,
  isReady,
  type Owner,
  OwnerController,
  type Pod,
  writeStatus,
} from "./workload.js";

type Job = batchV1.Job & { metadata: { name?: string } };

const INDEX = "batch.kubernetes.io/job-completion-index";

const finished = (job: Job) =>
  job.status?.conditions?.some(
    (c) => (c.type === "Complete" || c.type === "Failed") && c.status === "True",
  ) === true;

/** "0-2,5": the indexes as upstream's completedIndexes. */
function intervals(indexes: readonly number[]): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const start = sorted[i] as number;
    while (i + 1 < sorted.length && sorted[i + 1] === (sorted[i] as number) + 1) i++;
    parts.push(start === sorted[i] ? String(start) : `${start}-${sorted[i]}`);
  }
  return parts.join(",");
}

const indexOf = (pod: Pod) => Number(pod.metadata.annotations?.[INDEX] ?? -1);

export class JobController extends OwnerController<Job> {
  constructor(
    access: ClusterAccess,
    private readonly timing: LifecycleTiming,
    log?: (line: string) => void,
  ) {
    super(access, "jobs", { apiVersion: "batch/v1", kind: "Job" }, ["pods"], log);
  }

  protected async reconcile(key: string, job: Job, owner: Owner): Promise<void> {
    if (finished(job)) return;
    const pods = controlled<Pod>(this.access, "pods", owner);
    const succeeded = pods.filter((p) => p.status?.phase === "Succeeded");
    const failed = pods.filter((p) => p.status?.phase === "Failed").length;
    const active = pods.filter(isActive);
    const indexed = job.spec?.completionMode === "Indexed";
    const completions = job.spec?.completions ?? 1;
    const done = indexed ? new Set(succeeded.map(indexOf)).size : succeeded.length;
    const now = this.access.now();
    const base = { startTime: job.status?.startTime ?? now, uncountedTerminatedPods: {} };
    if (failed > (job.spec?.backoffLimit ?? 6)) {
      for (const p of active) await this.access.delete("pods", p.metadata);
      return this.finish(
        job,
        base,
        succeeded.length,
        failed,
        "Failed",
        "BackoffLimitExceeded",
        "Job has reached the specified backoff limit",
      );
    }
    if (done >= completions) {
      for (const p of active) await this.access.delete("pods", p.metadata);
      return this.finish(
        job,
        { ...base, completionTime: now },
        succeeded.length,
        failed,
        "Complete",
        "CompletionsReached",
        "Reached expected number of succeeded pods",
      );
    }
    if (!job.spec?.suspend) await this.start(key, job, owner, active, succeeded, failed);
    const running = controlled<Pod>(this.access, "pods", owner).filter(isActive);
    await writeStatus(this.access, "jobs", job, {
      ...base,
      active: running.length,
      ready: running.filter(isReady).length,
      succeeded: succeeded.length,
      failed,
      terminating: pods.filter((p) => p.metadata.deletionTimestamp && !isActive(p)).length,
      ...(indexed ? { completedIndexes: intervals(succeeded.map(indexOf)) } : {}),
    });
  }

  /** Creates the pods still missing, once the back-off after the last failure has passed. */
  private async start(
    key: string,
    job: Job,
    owner: { apiVersion: string; kind: string; metadata: Job["metadata"] },
    active: Pod[],
    succeeded: Pod[],
    failed: number,
  ) {
    const completions = job.spec?.completions ?? 1;
    const want = Math.min(job.spec?.parallelism ?? 1, completions - succeeded.length);
    if (failed > 0) {
      const wait = Math.min(
        this.timing.restartBackoffMs * 2 ** (failed - 1),
        this.timing.maxRestartBackoffMs,
      );
      const last = Math.max(
        ...controlled<Pod>(this.access, "pods", owner)
          .filter((p) => p.status?.phase === "Failed")
          .map((p) =>
            Date.parse(String(p.status?.containerStatuses?.[0]?.state?.terminated?.finishedAt ?? 0)),
          ),
      );
      const due = last + wait - this.access.ctx.now();
      if (due > 0) return this.watch.loop.add(key, due);
    }
    if (job.spec?.completionMode !== "Indexed") {
      for (let i = active.length; i < want; i++) await createPod(this.access, owner, job.spec?.template);
      return;
    }
    const taken = new Set([...active, ...succeeded].map(indexOf));
    let room = want - active.length;
    for (let index = 0; index < completions && room > 0; index++) {
      if (taken.has(index)) continue;
      room--;
      await createPod(this.access, owner, job.spec?.template, {
        annotations: { [INDEX]: String(index) },
        labels: { [INDEX]: String(index) },
        spec: { hostname: `${job.metadata.name}-${index}` },
      });
    }
  }

  private async finish(
    job: Job,
    base: object,
    succeeded: number,
    failed: number,
    type: "Complete" | "Failed",
    reason: string,
    message: string,
  ) {
    const now = this.access.now();
    const target = type === "Complete" ? "SuccessCriteriaMet" : "FailureTarget";
    let conditions = withCondition<batchV1.JobCondition>(job.status?.conditions, {
      type: target,
      status: "True",
      reason,
      message,
      lastTransitionTime: now,
    });
    conditions = withCondition(conditions, {
      type,
      status: "True",
      reason,
      message,
      lastTransitionTime: now,
    });
    await writeStatus(this.access, "jobs", job, {
      ...base,
      active: 0,
      ready: 0,
      succeeded,
      failed,
      terminating: 0,
      conditions: conditions.map((c) => ({ ...c, lastProbeTime: c.lastTransitionTime })),
    });
  }
}
