/**
 * The simulated ReplicaSet controller: keeps `spec.replicas` active pods from the template (creating
 * or deleting the difference; not-ready and newest pods go first) and reports replicas, ready and
 * available replicas (minReadySeconds) and the observed generation.
 */
import type { appsV1 } from "@kubesdk/models";
import { StatusError } from "../api/status.js";
import { type ClusterAccess, withCondition } from "./objects.js";
import {
  controlled,
  createPod,
  isActive,
  isAvailable,
  isReady,
  type Owner,
  OwnerController,
  type Pod,
  writeStatus,
} from "./workload.js";

type ReplicaSet = appsV1.ReplicaSet & { metadata: { name?: string } };

function deletionOrder(a: Pod, b: Pod): number {
  const ready = Number(isReady(a)) - Number(isReady(b));
  if (ready !== 0) return ready;
  return String(b.metadata.creationTimestamp).localeCompare(String(a.metadata.creationTimestamp));
}

export class ReplicaSetController extends OwnerController<ReplicaSet> {
  constructor(access: ClusterAccess, log?: (line: string) => void) {
    super(access, "replicasets", { apiVersion: "apps/v1", kind: "ReplicaSet" }, ["pods"], log);
  }

  protected async reconcile(key: string, rs: ReplicaSet, owner: Owner): Promise<void> {
    const active = controlled<Pod>(this.access, "pods", owner).filter(isActive);
    const want = rs.spec?.replicas ?? 1;
    let refused: StatusError | undefined;
    try {
      for (let i = active.length; i < want; i++) await createPod(this.access, owner, rs.spec?.template);
    } catch (e) {
      if (!(e instanceof StatusError)) throw e;
      refused = e;
    }
    if (active.length > want)
      for (const pod of [...active].sort(deletionOrder).slice(0, active.length - want))
        await this.access.delete("pods", pod.metadata);
    const now = this.access.ctx.now();
    const recheck = (ms: number) => this.watch.loop.add(key, ms);
    const minReady = rs.spec?.minReadySeconds ?? 0;
    const current = controlled<Pod>(this.access, "pods", owner).filter(isActive);
    const fresh = this.access.get<ReplicaSet>("replicasets", key);
    if (!fresh) return;
    // As upstream: a refused pod create is reported as ReplicaFailure (FailedCreate) and retried.
    const failure = refused
      ? {
          type: "ReplicaFailure",
          status: "True",
          reason: "FailedCreate",
          message: refused.message,
          lastTransitionTime: this.access.now(),
        }
      : undefined;
    const conditions = (fresh.status?.conditions ?? []).filter((c) => c.type !== "ReplicaFailure");
    await writeStatus(this.access, "replicasets", fresh, {
      conditions: failure
        ? withCondition(fresh.status?.conditions, failure)
        : conditions.length
          ? conditions
          : undefined,
      replicas: current.length,
      fullyLabeledReplicas: current.length,
      readyReplicas: current.filter(isReady).length,
      availableReplicas: current.filter((p) => isAvailable(p, minReady, now, recheck)).length,
      observedGeneration: fresh.metadata.generation,
    });
    if (refused) throw refused;
  }
}
