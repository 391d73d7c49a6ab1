/** Table cells of RBAC bindings, priority classes, network policies and runtime classes. */
import type { Row } from "./cells-core.js";
import { type Json, selectorString, since } from "./format.js";

type Cells = (o: Json, now: number) => Row;

function subjects(b: Json, kind: string): string {
  const names = ((b.subjects ?? []) as Json[])
    .filter((s) => s.kind === kind)
    .map((s) => (kind === "ServiceAccount" ? `${s.namespace ?? ""}/${s.name}` : s.name));
  return names.join(", ");
}

const binding: Cells = (b, now) => ({
  cells: [
    b.metadata.name,
    `${b.roleRef?.kind ?? ""}/${b.roleRef?.name ?? ""}`,
    since(b.metadata.creationTimestamp, now),
    subjects(b, "User"),
    subjects(b, "Group"),
    subjects(b, "ServiceAccount"),
  ],
});

export const CLUSTER_CELLS: Readonly<Record<string, Cells>> = {
  "rbac.authorization.k8s.io/rolebindings": binding,
  "rbac.authorization.k8s.io/clusterrolebindings": binding,
  "scheduling.k8s.io/priorityclasses": (p, now) => ({
    cells: [
      p.metadata.name,
      p.value ?? 0,
      p.globalDefault === true,
      since(p.metadata.creationTimestamp, now),
      p.preemptionPolicy ?? "",
    ],
  }),
  "networking.k8s.io/networkpolicies": (np, now) => ({
    cells: [
      np.metadata.name,
      selectorString(np.spec?.podSelector),
      since(np.metadata.creationTimestamp, now),
    ],
  }),
  "node.k8s.io/runtimeclasses": (rc, now) => ({
    cells: [rc.metadata.name, rc.handler ?? "", since(rc.metadata.creationTimestamp, now)],
  }),
};
