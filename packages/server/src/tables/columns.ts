/**
 * Column definitions of the built-in kinds kubectl prints, as kube-apiserver serves them in
 * Tables (names, types, formats and priorities are part of the wire contract; descriptions are
 * our own words, see `col`).
 */

export interface ColumnDefinition {
  readonly name: string;
  readonly type: string;
  readonly format: string;
  readonly description: string;
  readonly priority: number;
}

// kube-apiserver fills each description from the Go type's documentation. That prose is
// upstream's, so this server says in a few words of its own what the column shows
// (docs/divergences.md D47); names, types, formats and priorities match the real server.
const col = (name: string, type: string, priority = 0, format = ""): ColumnDefinition => ({
  name,
  type,
  format,
  description: describeColumn(name),
  priority,
});

function describeColumn(name: string): string {
  if (name === "Name") return "The object's name, unique within its namespace (or the cluster).";
  if (name === "Age") return "Time since the object was created.";
  return `The ${name.toLowerCase()} column kubectl shows for this kind.`;
}

/** Name (format "name") and then the columns written as `Title[:type][*]`. */
function table(...specs: string[]): ColumnDefinition[] {
  return [
    col("Name", "string", 0, "name"),
    ...specs.map((spec) => {
      const wide = spec.endsWith("*");
      const [name = "", type = "string"] = (wide ? spec.slice(0, -1) : spec).split(":");
      return col(name, type, wide ? 1 : 0);
    }),
  ];
}

/** ReplicaSets and ReplicationControllers print the same columns. */
const REPLICA_COUNTS = table(
  "Desired:integer",
  "Current:integer",
  "Ready:integer",
  "Age",
  "Containers*",
  "Images*",
  "Selector*",
);

/**
 * Each kind's columns after Name, as `Title[:type][*]`: the type when it is not "string", `*` for
 * the wide columns (priority 1).
 */
export const BUILTIN_COLUMNS: Readonly<Record<string, readonly ColumnDefinition[]>> = {
  "/pods": table("Ready", "Status", "Restarts", "Age", "IP*", "Node*", "Nominated Node*", "Readiness Gates*"),
  "/nodes": table(
    "Status",
    "Roles",
    "Age",
    "Version",
    "Internal-IP*",
    "External-IP*",
    "OS-Image*",
    "Kernel-Version*",
    "Container-Runtime*",
  ),
  "/namespaces": table("Status", "Age"),
  "/services": table("Type", "Cluster-IP", "External-IP", "Port(s)", "Age", "Selector*"),
  "/configmaps": table("Data", "Age"),
  "/secrets": table("Type", "Data", "Age"),
  "/serviceaccounts": table("Age"),
  "apps/deployments": table("Ready", "Up-to-date", "Available", "Age", "Containers*", "Images*", "Selector*"),
  "apps/replicasets": REPLICA_COUNTS,
  "apps/daemonsets": table(
    "Desired:integer",
    "Current:integer",
    "Ready:integer",
    "Up-to-date:integer",
    "Available:integer",
    "Node Selector",
    "Age",
    "Containers*",
    "Images*",
    "Selector*",
  ),
  "apps/statefulsets": table("Ready", "Age", "Containers*", "Images*"),
  "apps/controllerrevisions": table("Controller", "Revision", "Age"),
  "batch/jobs": table("Status", "Completions", "Duration", "Age", "Containers*", "Images*", "Selector*"),
  "batch/cronjobs": table(
    "Schedule",
    "Timezone",
    "Suspend:boolean",
    "Active:integer",
    "Last Schedule",
    "Age",
    "Containers*",
    "Images*",
    "Selector*",
  ),
  "discovery.k8s.io/endpointslices": table("AddressType", "Ports", "Endpoints", "Age"),
  "coordination.k8s.io/leases": table("Holder", "Age"),
  "policy/poddisruptionbudgets": table(
    "Min Available",
    "Max Unavailable",
    "Allowed Disruptions:integer",
    "Age",
  ),
  "/replicationcontrollers": REPLICA_COUNTS,
  "rbac.authorization.k8s.io/rolebindings": table("Role", "Age", "Users*", "Groups*", "ServiceAccounts*"),
  "rbac.authorization.k8s.io/clusterrolebindings": table(
    "Role",
    "Age",
    "Users*",
    "Groups*",
    "ServiceAccounts*",
  ),
  "scheduling.k8s.io/priorityclasses": table(
    "Value:integer",
    "Global-Default:boolean",
    "Age",
    "PreemptionPolicy",
  ),
  "networking.k8s.io/networkpolicies": table("Pod-Selector", "Age"),
  "node.k8s.io/runtimeclasses": table("Handler", "Age"),
};
