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

export const BUILTIN_COLUMNS: Readonly<Record<string, readonly ColumnDefinition[]>> = {
  "/pods": [
    col("Name", "string", 0, "name"),
    col("Ready", "string"),
    col("Status", "string"),
    col("Restarts", "string"),
    col("Age", "string"),
    col("IP", "string", 1),
    col("Node", "string", 1),
    col("Nominated Node", "string", 1),
    col("Readiness Gates", "string", 1),
  ],
  "/nodes": [
    col("Name", "string", 0, "name"),
    col("Status", "string"),
    col("Roles", "string"),
    col("Age", "string"),
    col("Version", "string"),
    col("Internal-IP", "string", 1),
    col("External-IP", "string", 1),
    col("OS-Image", "string", 1),
    col("Kernel-Version", "string", 1),
    col("Container-Runtime", "string", 1),
  ],
  "/namespaces": [col("Name", "string", 0, "name"), col("Status", "string"), col("Age", "string")],
  "/services": [
    col("Name", "string", 0, "name"),
    col("Type", "string"),
    col("Cluster-IP", "string"),
    col("External-IP", "string"),
    col("Port(s)", "string"),
    col("Age", "string"),
    col("Selector", "string", 1),
  ],
  "/configmaps": [col("Name", "string", 0, "name"), col("Data", "string"), col("Age", "string")],
  "/secrets": [
    col("Name", "string", 0, "name"),
    col("Type", "string"),
    col("Data", "string"),
    col("Age", "string"),
  ],
  "/serviceaccounts": [col("Name", "string", 0, "name"), col("Age", "string")],
  "apps/deployments": [
    col("Name", "string", 0, "name"),
    col("Ready", "string"),
    col("Up-to-date", "string"),
    col("Available", "string"),
    col("Age", "string"),
    col("Containers", "string", 1),
    col("Images", "string", 1),
    col("Selector", "string", 1),
  ],
  "apps/replicasets": [
    col("Name", "string", 0, "name"),
    col("Desired", "integer"),
    col("Current", "integer"),
    col("Ready", "integer"),
    col("Age", "string"),
    col("Containers", "string", 1),
    col("Images", "string", 1),
    col("Selector", "string", 1),
  ],
  "apps/daemonsets": [
    col("Name", "string", 0, "name"),
    col("Desired", "integer"),
    col("Current", "integer"),
    col("Ready", "integer"),
    col("Up-to-date", "integer"),
    col("Available", "integer"),
    col("Node Selector", "string"),
    col("Age", "string"),
    col("Containers", "string", 1),
    col("Images", "string", 1),
    col("Selector", "string", 1),
  ],
  "apps/statefulsets": [
    col("Name", "string", 0, "name"),
    col("Ready", "string"),
    col("Age", "string"),
    col("Containers", "string", 1),
    col("Images", "string", 1),
  ],
  "apps/controllerrevisions": [
    col("Name", "string", 0, "name"),
    col("Controller", "string"),
    col("Revision", "string"),
    col("Age", "string"),
  ],
  "batch/jobs": [
    col("Name", "string", 0, "name"),
    col("Status", "string"),
    col("Completions", "string"),
    col("Duration", "string"),
    col("Age", "string"),
    col("Containers", "string", 1),
    col("Images", "string", 1),
    col("Selector", "string", 1),
  ],
  "batch/cronjobs": [
    col("Name", "string", 0, "name"),
    col("Schedule", "string"),
    col("Timezone", "string"),
    col("Suspend", "boolean"),
    col("Active", "integer"),
    col("Last Schedule", "string"),
    col("Age", "string"),
    col("Containers", "string", 1),
    col("Images", "string", 1),
    col("Selector", "string", 1),
  ],
  "discovery.k8s.io/endpointslices": [
    col("Name", "string", 0, "name"),
    col("AddressType", "string"),
    col("Ports", "string"),
    col("Endpoints", "string"),
    col("Age", "string"),
  ],
  "coordination.k8s.io/leases": [
    col("Name", "string", 0, "name"),
    col("Holder", "string"),
    col("Age", "string"),
  ],
  "policy/poddisruptionbudgets": [
    col("Name", "string", 0, "name"),
    col("Min Available", "string"),
    col("Max Unavailable", "string"),
    col("Allowed Disruptions", "integer"),
    col("Age", "string"),
  ],
  "/replicationcontrollers": [
    col("Name", "string", 0, "name"),
    col("Desired", "integer"),
    col("Current", "integer"),
    col("Ready", "integer"),
    col("Age", "string"),
    col("Containers", "string", 1),
    col("Images", "string", 1),
    col("Selector", "string", 1),
  ],
  "rbac.authorization.k8s.io/rolebindings": [
    col("Name", "string", 0, "name"),
    col("Role", "string"),
    col("Age", "string"),
    col("Users", "string", 1),
    col("Groups", "string", 1),
    col("ServiceAccounts", "string", 1),
  ],
  "rbac.authorization.k8s.io/clusterrolebindings": [
    col("Name", "string", 0, "name"),
    col("Role", "string"),
    col("Age", "string"),
    col("Users", "string", 1),
    col("Groups", "string", 1),
    col("ServiceAccounts", "string", 1),
  ],
  "scheduling.k8s.io/priorityclasses": [
    col("Name", "string", 0, "name"),
    col("Value", "integer"),
    col("Global-Default", "boolean"),
    col("Age", "string"),
    col("PreemptionPolicy", "string"),
  ],
  "networking.k8s.io/networkpolicies": [
    col("Name", "string", 0, "name"),
    col("Pod-Selector", "string"),
    col("Age", "string"),
  ],
  "node.k8s.io/runtimeclasses": [
    col("Name", "string", 0, "name"),
    col("Handler", "string"),
    col("Age", "string"),
  ],
};
