/**
 * The simulated Deployment controller: one ReplicaSet per pod template (named and labelled by the
 * template's hash, with a revision annotation), rolled as the strategy says — Recreate: the old
 * ones to 0 before the new one grows; RollingUpdate: the new one grows within maxSurge while old
 * ones shrink as far as maxUnavailable lets — and a status whose Available and Progressing
 * conditions are upstream's (what `kubectl rollout status` waits for).
 */
import type { appsV1 } from "@kubesdk/models";
import { type ClusterAccess, controllerRef, withCondition } from "./objects.js";
import { controlled, type Owner, OwnerController, templateHash, writeStatus } from "./workload.js";

type Deployment = appsV1.Deployment & { metadata: { name?: string } };
type ReplicaSet = appsV1.ReplicaSet & { metadata: { name?: string } };

const REVISION = "deployment.kubernetes.io/revision";
const HASH = "pod-template-hash";

/** A maxSurge / maxUnavailable value of `total` (percentages: surge rounds up, unavailable down). */
function amount(
  value: number | string | undefined,
  fallback: string,
  total: number,
  roundUp: boolean,
): number {
  const v = value ?? fallback;
  if (typeof v === "number") return v;
  const pct = Number(v.replace("%", ""));
  return roundUp ? Math.ceil((pct * total) / 100) : Math.floor((pct * total) / 100);
}

const specReplicas = (rs: ReplicaSet) => rs.spec?.replicas ?? 0;
const revisionOf = (rs: ReplicaSet) => Number(rs.metadata.annotations?.[REVISION] ?? 0);

export class DeploymentController extends OwnerController<Deployment> {
  constructor(access: ClusterAccess, log?: (line: string) => void) {
    super(access, "deployments", { apiVersion: "apps/v1", kind: "Deployment" }, ["replicasets"], log);
  }

  protected async reconcile(_key: string, d: Deployment, owner: Owner): Promise<void> {
    if (d.spec?.paused) return;
    const all = controlled<ReplicaSet>(this.access, "replicasets", owner);
    const hash = templateHash(d.spec?.template);
    let next = all.find((rs) => rs.metadata.labels?.[HASH] === hash);
    const old = all.filter((rs) => rs !== next);
    if (!next) {
      await this.createReplicaSet(d, hash, Math.max(0, ...all.map(revisionOf)) + 1, old);
      return;
    }
    const replicas = d.spec?.replicas ?? 1;
    if (d.spec?.strategy?.type === "Recreate") await this.recreate(replicas, next, old);
    else await this.roll(d, replicas, next, old);
    next =
      this.access.get<ReplicaSet>("replicasets", `${d.metadata.namespace}/${next.metadata.name}`) ?? next;
    await this.report(d, next, old);
  }

  private async createReplicaSet(d: Deployment, hash: string, revision: number, old: ReplicaSet[]) {
    const template = d.spec?.template ?? {};
    const labels = { ...template.metadata?.labels, [HASH]: hash };
    const selector = { ...d.spec?.selector, matchLabels: { ...d.spec?.selector?.matchLabels, [HASH]: hash } };
    const replicas =
      d.spec?.strategy?.type === "Recreate" || old.some((rs) => specReplicas(rs) > 0)
        ? 0
        : (d.spec?.replicas ?? 1);
    await this.access.create("replicasets", d.metadata.namespace, {
      metadata: {
        name: `${d.metadata.name}-${hash}`,
        namespace: d.metadata.namespace,
        labels,
        annotations: { [REVISION]: String(revision) },
        ownerReferences: [controllerRef("apps/v1", "Deployment", d.metadata)],
      },
      spec: {
        replicas,
        minReadySeconds: d.spec?.minReadySeconds ?? 0,
        selector,
        template: { ...template, metadata: { ...template.metadata, labels } },
      },
    });
    await this.access.update("deployments", {
      ...d,
      metadata: { ...d.metadata, annotations: { ...d.metadata.annotations, [REVISION]: String(revision) } },
    });
  }

  private async scale(rs: ReplicaSet, replicas: number): Promise<void> {
    if (specReplicas(rs) === replicas) return;
    await this.access.update("replicasets", { ...rs, spec: { ...rs.spec, replicas } });
  }

  private async recreate(replicas: number, next: ReplicaSet, old: ReplicaSet[]): Promise<void> {
    for (const rs of old) await this.scale(rs, 0);
    if (old.every((rs) => (rs.status?.replicas ?? 0) === 0)) await this.scale(next, replicas);
  }

  private async roll(d: Deployment, replicas: number, next: ReplicaSet, old: ReplicaSet[]): Promise<void> {
    const rolling = d.spec?.strategy?.rollingUpdate;
    const surge = amount(rolling?.maxSurge, "25%", replicas, true);
    let unavailable = amount(rolling?.maxUnavailable, "25%", replicas, false);
    if (surge === 0 && unavailable === 0) unavailable = 1;
    const oldTotal = old.reduce((n, rs) => n + specReplicas(rs), 0);
    const grown = Math.min(replicas, Math.max(specReplicas(next), replicas + surge - oldTotal));
    await this.scale(next, oldTotal === 0 ? replicas : grown);
    let available =
      (next.status?.availableReplicas ?? 0) +
      old.reduce((n, rs) => n + (rs.status?.availableReplicas ?? 0), 0);
    const minAvailable = replicas - unavailable;
    for (const rs of [...old].sort((a, b) => revisionOf(a) - revisionOf(b))) {
      // Replicas that are not available anyway may go at once; available ones while enough remain.
      const idle = specReplicas(rs) - (rs.status?.availableReplicas ?? 0);
      const spare = Math.max(0, available - minAvailable);
      const cut = Math.min(specReplicas(rs), Math.max(0, idle) + spare);
      available -= Math.max(0, cut - Math.max(0, idle));
      await this.scale(rs, specReplicas(rs) - cut);
    }
  }

  private async report(d: Deployment, next: ReplicaSet, old: ReplicaSet[]): Promise<void> {
    const all = [next, ...old];
    const sum = (f: (rs: ReplicaSet) => number | undefined) => all.reduce((n, rs) => n + (f(rs) ?? 0), 0);
    const replicas = d.spec?.replicas ?? 1;
    const available = sum((rs) => rs.status?.availableReplicas);
    const rolling = d.spec?.strategy?.rollingUpdate;
    const minAvailable =
      d.spec?.strategy?.type === "Recreate"
        ? replicas
        : replicas - amount(rolling?.maxUnavailable, "25%", replicas, false);
    const updated = next.status?.replicas ?? 0;
    const done =
      updated === replicas &&
      sum((rs) => rs.status?.replicas) === replicas &&
      (next.status?.availableReplicas ?? 0) === replicas;
    const now = this.access.now();
    const availableCondition =
      available >= minAvailable
        ? {
            type: "Available",
            status: "True",
            reason: "MinimumReplicasAvailable",
            message: "Deployment has minimum availability.",
          }
        : {
            type: "Available",
            status: "False",
            reason: "MinimumReplicasUnavailable",
            message: "Deployment does not have minimum availability.",
          };
    const name = next.metadata.name;
    const progressing = done
      ? {
          type: "Progressing",
          status: "True",
          reason: "NewReplicaSetAvailable",
          message: `ReplicaSet "${name}" has successfully progressed.`,
        }
      : {
          type: "Progressing",
          status: "True",
          reason: "ReplicaSetUpdated",
          message: `ReplicaSet "${name}" is progressing.`,
        };
    let conditions = withCondition<appsV1.DeploymentCondition>(d.status?.conditions, {
      ...availableCondition,
      lastUpdateTime: now,
      lastTransitionTime: now,
    });
    conditions = withCondition(conditions, { ...progressing, lastUpdateTime: now, lastTransitionTime: now });
    // The new ReplicaSet's pod creation failure shows on the Deployment too, as upstream.
    const failure = next.status?.conditions?.find((c) => c.type === "ReplicaFailure" && c.status === "True");
    conditions = failure
      ? withCondition(conditions, { ...failure, lastUpdateTime: now })
      : conditions.filter((c) => c.type !== "ReplicaFailure");
    const keep = (c: appsV1.DeploymentCondition) => {
      const old = d.status?.conditions?.find((o) => o.type === c.type);
      return old && old.reason === c.reason ? { ...c, lastUpdateTime: old.lastUpdateTime } : c;
    };
    await writeStatus(this.access, "deployments", d, {
      observedGeneration: d.metadata.generation,
      replicas: sum((rs) => rs.status?.replicas),
      updatedReplicas: updated,
      readyReplicas: sum((rs) => rs.status?.readyReplicas),
      availableReplicas: available,
      ...(replicas - available > 0
        ? { unavailableReplicas: replicas - available }
        : { unavailableReplicas: undefined }),
      conditions: conditions.map(keep),
    });
  }
}
