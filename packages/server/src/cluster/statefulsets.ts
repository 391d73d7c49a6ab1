/**
 * The simulated StatefulSet controller: pods `<name>-<ordinal>` with stable hostnames and claims
 * from the volumeClaimTemplates; OrderedReady creates ordinal n only when 0…n-1 are Running and
 * Ready and removes the highest first, Parallel does both at once. A changed template rolls from
 * the highest ordinal down (at or above the partition), one pod at a time, each replaced once the
 * others are ready. Revisions are the template's hash (`<name>-<hash>`).
 */
import type { appsV1, coreV1 } from "@kubesdk/models";
import { StatusError } from "../api/status.js";
import type { ClusterAccess } from "./objects.js";
import {
  controlled,
  createPod,
  isActive,
  isAvailable,
  isReady,
  type Owner,
  OwnerController,
  type Pod,
  templateHash,
  writeStatus,
} from "./workload.js";

type StatefulSet = appsV1.StatefulSet & { metadata: { name?: string } };

const REVISION = "controller-revision-hash";

const ordinalOf = (set: StatefulSet, pod: Pod) => {
  const m = new RegExp(`^${set.metadata.name}-(\\d+)$`).exec(String(pod.metadata.name));
  return m ? Number(m[1]) : -1;
};
const running = (pod: Pod) => isActive(pod) && pod.status?.phase === "Running" && isReady(pod);

export class StatefulSetController extends OwnerController<StatefulSet> {
  constructor(access: ClusterAccess, log?: (line: string) => void) {
    super(access, "statefulsets", { apiVersion: "apps/v1", kind: "StatefulSet" }, ["pods"], log);
  }

  protected async reconcile(key: string, set: StatefulSet, owner: Owner): Promise<void> {
    const revision = `${set.metadata.name}-${templateHash(set.spec?.template)}`;
    const pods = new Map(controlled<Pod>(this.access, "pods", owner).map((p) => [ordinalOf(set, p), p]));
    const replicas = set.spec?.replicas ?? 1;
    const ordered = set.spec?.podManagementPolicy !== "Parallel";
    await this.converge(set, owner, pods, replicas, revision, ordered);
    const current = controlled<Pod>(this.access, "pods", owner).filter(isActive);
    const updated = current.filter((p) => p.metadata.labels?.[REVISION] === revision).length;
    const fresh = this.access.get<StatefulSet>("statefulsets", key);
    if (!fresh) return;
    const complete = updated === replicas && current.length === replicas;
    const now = this.access.ctx.now();
    const recheck = (ms: number) => this.watch.loop.add(key, ms);
    const minReady = set.spec?.minReadySeconds ?? 0;
    await writeStatus(this.access, "statefulsets", fresh, {
      observedGeneration: fresh.metadata.generation,
      replicas: current.length,
      readyReplicas: current.filter(isReady).length,
      availableReplicas: current.filter((p) => isAvailable(p, minReady, now, recheck)).length,
      currentReplicas: complete ? updated : current.length - updated,
      updatedReplicas: updated,
      currentRevision: complete ? revision : (fresh.status?.currentRevision ?? revision),
      updateRevision: revision,
      collisionCount: 0,
    });
  }

  /** One step towards `replicas` pods of `revision` (ordered: one pod at a time). */
  private async converge(
    set: StatefulSet,
    owner: Parameters<typeof createPod>[1],
    pods: Map<number, Pod>,
    replicas: number,
    revision: string,
    ordered: boolean,
  ) {
    for (let i = 0; i < replicas; i++) {
      const pod = pods.get(i);
      if (
        pod &&
        (pod.status?.phase === "Failed" || pod.status?.phase === "Succeeded") &&
        !pod.metadata.deletionTimestamp
      ) {
        await this.access.delete("pods", pod.metadata);
        return;
      }
      if (!pod) {
        await this.createClaims(set, `${set.metadata.name}-${i}`);
        await createPod(this.access, owner, set.spec?.template, this.podParts(set, i, revision));
        if (ordered) return;
      } else if (ordered && !running(pod)) return;
    }
    const extra = [...pods.keys()].filter((i) => i >= replicas).sort((a, b) => b - a);
    for (const i of ordered ? extra.slice(0, 1) : extra)
      await this.access.delete("pods", (pods.get(i) as Pod).metadata);
    if (extra.length > 0) return;
    if (set.spec?.updateStrategy?.type === "OnDelete") return;
    const partition = set.spec?.updateStrategy?.rollingUpdate?.partition ?? 0;
    const all = [...pods.values()];
    if (all.some((p) => !running(p))) return;
    const stale = [...pods.entries()]
      .filter(([i, p]) => i >= partition && p.metadata.labels?.[REVISION] !== revision)
      .sort((a, b) => b[0] - a[0])[0];
    if (stale) await this.access.delete("pods", stale[1].metadata);
  }

  private podParts(set: StatefulSet, ordinal: number, revision: string) {
    const name = `${set.metadata.name}-${ordinal}`;
    const claims: coreV1.Volume[] = (set.spec?.volumeClaimTemplates ?? []).map((t) => ({
      name: String(t.metadata?.name),
      persistentVolumeClaim: { claimName: `${t.metadata?.name}-${name}` },
    }));
    const volumes = [
      ...(set.spec?.template?.spec?.volumes ?? []).filter((v) => !claims.some((c) => c.name === v.name)),
      ...claims,
    ];
    return {
      name,
      labels: {
        [REVISION]: revision,
        "statefulset.kubernetes.io/pod-name": name,
        "apps.kubernetes.io/pod-index": String(ordinal),
      },
      spec: {
        hostname: name,
        ...(set.spec?.serviceName ? { subdomain: set.spec.serviceName } : {}),
        ...(volumes.length > 0 ? { volumes } : {}),
      },
    };
  }

  /** The pod's claims from the volumeClaimTemplates (kept when the pod goes, as upstream by default). */
  private async createClaims(set: StatefulSet, pod: string): Promise<void> {
    for (const t of set.spec?.volumeClaimTemplates ?? []) {
      const name = `${t.metadata?.name}-${pod}`;
      if (this.access.get("persistentvolumeclaims", `${set.metadata.namespace}/${name}`)) continue;
      try {
        await this.access.create("persistentvolumeclaims", set.metadata.namespace, {
          metadata: {
            name,
            namespace: set.metadata.namespace,
            labels: set.spec?.selector?.matchLabels ?? {},
          },
          spec: t.spec,
        });
      } catch (e) {
        if (!(e instanceof StatusError) || e.status.code !== 409) throw e;
      }
    }
  }
}
