/**
 * The simulated DaemonSet controller: one pod on every node the template's node selector, required
 * node affinity and tolerations admit (plus the tolerations upstream adds to daemon pods), pinned
 * to its node by node affinity on metadata.name and bound by the scheduler; pods on nodes that no
 * longer qualify are deleted. A changed template rolls node by node within maxUnavailable.
 */
import type { appsV1, coreV1 } from "@kubesdk/models";
import { matchesNodeAffinity, untolerated } from "./fit.js";
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

type DaemonSet = appsV1.DaemonSet & { metadata: { name?: string } };
type Node = coreV1.Node & { metadata: { name?: string } };

const REVISION = "controller-revision-hash";
const TEMPLATE_GENERATION = "deprecated.daemonset.template.generation";

/** Upstream's controller labels pods with the template generation the apiserver keeps. */
const templateGenerationLabel = (ds: DaemonSet): string =>
  ds.metadata.annotations?.[TEMPLATE_GENERATION] ?? "1";

/** The tolerations every daemon pod gets (upstream's daemon pod defaults). */
const DAEMON_TOLERATIONS: coreV1.Toleration[] = [
  { key: "node.kubernetes.io/not-ready", operator: "Exists", effect: "NoExecute" },
  { key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoExecute" },
  { key: "node.kubernetes.io/disk-pressure", operator: "Exists", effect: "NoSchedule" },
  { key: "node.kubernetes.io/memory-pressure", operator: "Exists", effect: "NoSchedule" },
  { key: "node.kubernetes.io/pid-pressure", operator: "Exists", effect: "NoSchedule" },
  { key: "node.kubernetes.io/unschedulable", operator: "Exists", effect: "NoSchedule" },
];

/** The template's spec pinned to one node: each required term gets matchFields on metadata.name. */
function pinnedSpec(spec: coreV1.PodSpec | undefined, node: string): Partial<coreV1.PodSpec> {
  const field = { key: "metadata.name", operator: "In", values: [node] };
  const terms = spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
    ?.nodeSelectorTerms ?? [{}];
  const tolerations = [...(spec?.tolerations ?? [])];
  for (const t of DAEMON_TOLERATIONS)
    if (!tolerations.some((o) => o.key === t.key && o.effect === t.effect)) tolerations.push(t);
  return {
    tolerations,
    affinity: {
      ...spec?.affinity,
      nodeAffinity: {
        ...spec?.affinity?.nodeAffinity,
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: terms.map((t) => ({ ...t, matchFields: [field] })),
        },
      },
    },
  };
}

export class DaemonSetController extends OwnerController<DaemonSet> {
  private readonly unsubscribe: () => void;

  constructor(access: ClusterAccess, log?: (line: string) => void) {
    super(access, "daemonsets", { apiVersion: "apps/v1", kind: "DaemonSet" }, ["pods"], log);
    const nodes = access.resource("nodes").bucket;
    // A node added, relabelled or tainted changes where every daemon set should run.
    this.unsubscribe = access.ctx.store.subscribe((e) => {
      if (e.bucket === nodes)
        for (const ds of access.list<DaemonSet>("daemonsets"))
          this.watch.loop.add(`${ds.metadata.namespace}/${ds.metadata.name}`);
    });
  }

  override close(): void {
    this.unsubscribe();
    super.close();
  }

  protected async reconcile(key: string, ds: DaemonSet, owner: Owner): Promise<void> {
    const revision = templateHash(ds.spec?.template);
    const probe = {
      spec: { ...ds.spec?.template?.spec, ...pinnedSpec(ds.spec?.template?.spec, "") },
    } as coreV1.Pod;
    const eligible = this.access
      .list<Node>("nodes")
      .filter(
        (n) =>
          matchesNodeAffinity(
            { spec: { ...probe.spec, affinity: ds.spec?.template?.spec?.affinity } } as coreV1.Pod,
            n,
          ) && untolerated(probe, n.spec?.taints, ["NoSchedule", "NoExecute"]).length === 0,
      );
    const names = new Set(eligible.map((n) => String(n.metadata.name)));
    const pods = controlled<Pod>(this.access, "pods", owner).filter(isActive);
    const nodeOf = (p: Pod) =>
      p.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0]
        ?.matchFields?.[0]?.values?.[0] ?? p.spec?.nodeName;
    for (const p of pods) if (!names.has(String(nodeOf(p)))) await this.access.delete("pods", p.metadata);
    for (const node of names)
      if (!pods.some((p) => nodeOf(p) === node))
        await createPod(this.access, owner, ds.spec?.template, {
          labels: { [REVISION]: revision, "pod-template-generation": templateGenerationLabel(ds) },
          spec: pinnedSpec(ds.spec?.template?.spec, node),
        });
    await this.roll(
      ds,
      pods.filter((p) => names.has(String(nodeOf(p)))),
      revision,
    );
    const now = this.access.ctx.now();
    const recheck = (ms: number) => this.watch.loop.add(key, ms);
    const current = controlled<Pod>(this.access, "pods", owner).filter(
      (p) => isActive(p) && names.has(String(nodeOf(p))),
    );
    const available = current.filter((p) =>
      isAvailable(p, ds.spec?.minReadySeconds ?? 0, now, recheck),
    ).length;
    const fresh = this.access.get<DaemonSet>("daemonsets", key);
    if (!fresh) return;
    await writeStatus(this.access, "daemonsets", fresh, {
      observedGeneration: fresh.metadata.generation,
      desiredNumberScheduled: names.size,
      currentNumberScheduled: current.length,
      numberMisscheduled: 0,
      numberReady: current.filter(isReady).length,
      numberAvailable: available,
      ...(names.size - available > 0
        ? { numberUnavailable: names.size - available }
        : { numberUnavailable: undefined }),
      updatedNumberScheduled: current.filter((p) => p.metadata.labels?.[REVISION] === revision).length,
    });
  }

  /** Deletes old-revision pods while no more than maxUnavailable (default 1) are unavailable. */
  private async roll(ds: DaemonSet, pods: Pod[], revision: string): Promise<void> {
    if (ds.spec?.updateStrategy?.type === "OnDelete") return;
    const raw = ds.spec?.updateStrategy?.rollingUpdate?.maxUnavailable ?? 1;
    const max =
      typeof raw === "number"
        ? raw
        : Math.max(1, Math.floor((Number(raw.replace("%", "")) * pods.length) / 100));
    let room = max - pods.filter((p) => !isReady(p)).length;
    for (const p of pods) {
      if (room <= 0) return;
      if (p.metadata.labels?.[REVISION] === revision || !isReady(p)) continue;
      await this.access.delete("pods", p.metadata);
      room--;
    }
  }
}
