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
  if (name === "Created At") return "When the object was created.";
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

/** Events (core and events.k8s.io) put Name last, among the wide columns. */
const EVENT_COLUMNS = [
  col("Last Seen", "string"),
  col("Type", "string"),
  col("Reason", "string"),
  col("Object", "string"),
  col("Subobject", "string", 1),
  col("Source", "string", 1),
  col("Message", "string"),
  col("First Seen", "string", 1),
  col("Count", "string", 1),
  col("Name", "string", 1, "name"),
];

/** Admission policy bindings (validating and mutating). */
const POLICY_BINDING = table("PolicyName", "ParamRef", "Age");

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
  ...moreColumns(),
};

/** Storage, networking, autoscaling, certificates, admission, flow control and DRA kinds. */
function moreColumns(): Record<string, readonly ColumnDefinition[]> {
  return {
    "/events": EVENT_COLUMNS,
    "events.k8s.io/events": EVENT_COLUMNS,
    "/endpoints": table("Endpoints", "Age"),
    "/podtemplates": table("Containers", "Images", "Pod Labels"),
    "/resourcequotas": table("Request", "Limit", "Age"),
    "/persistentvolumeclaims": table(
      "Status",
      "Volume",
      "Capacity",
      "Access Modes",
      "StorageClass",
      "VolumeAttributesClass",
      "Age",
      "VolumeMode*",
    ),
    "/persistentvolumes": table(
      "Capacity",
      "Access Modes",
      "Reclaim Policy",
      "Status",
      "Claim",
      "StorageClass",
      "VolumeAttributesClass",
      "Reason",
      "Age",
      "VolumeMode*",
    ),
    "storage.k8s.io/storageclasses": table(
      "Provisioner",
      "ReclaimPolicy",
      "VolumeBindingMode",
      "AllowVolumeExpansion",
      "Age",
    ),
    "storage.k8s.io/csidrivers": table(
      "AttachRequired:boolean",
      "PodInfoOnMount:boolean",
      "StorageCapacity:boolean",
      "TokenRequests",
      "RequiresRepublish:boolean",
      "Modes",
      "Age",
    ),
    "storage.k8s.io/csinodes": table("Drivers:integer", "Age"),
    // The real server marks the attacher column with the "name" format too.
    "storage.k8s.io/volumeattachments": [
      ...table(),
      col("Attacher", "string", 0, "name"),
      ...table("PV", "Node", "Attached:boolean", "Age").slice(1),
    ],
    "storage.k8s.io/volumeattributesclasses": table("DriverName", "Age"),
    "networking.k8s.io/ingresses": table("Class", "Hosts", "Address", "Ports", "Age"),
    "networking.k8s.io/ingressclasses": table("Controller", "Parameters", "Age"),
    "networking.k8s.io/servicecidrs": table("CIDRs", "Age"),
    // The real server defines two columns and fills three cells (the third is the age).
    "networking.k8s.io/ipaddresses": table("ParentRef"),
    "autoscaling/horizontalpodautoscalers": table(
      "Reference",
      "Targets",
      "MinPods",
      "MaxPods",
      "Replicas",
      "Age",
    ),
    "certificates.k8s.io/certificatesigningrequests": table(
      "Age",
      "SignerName",
      "Requestor",
      "RequestedDuration",
      "Condition",
    ),
    "apiextensions.k8s.io/customresourcedefinitions": table(
      "Scope",
      "Versions",
      "Created At:date",
      "Group*",
      "Kind*",
      "ShortNames*",
      "Established:boolean*",
    ),
    "apiregistration.k8s.io/apiservices": table("Service", "Available", "Age"),
    "admissionregistration.k8s.io/validatingwebhookconfigurations": table("Webhooks:integer", "Age"),
    "admissionregistration.k8s.io/mutatingwebhookconfigurations": table("Webhooks:integer", "Age"),
    "admissionregistration.k8s.io/validatingadmissionpolicies": table(
      "Validations:integer",
      "ParamKind",
      "Age",
    ),
    "admissionregistration.k8s.io/mutatingadmissionpolicies": table("Mutations:integer", "ParamKind", "Age"),
    "admissionregistration.k8s.io/validatingadmissionpolicybindings": POLICY_BINDING,
    "admissionregistration.k8s.io/mutatingadmissionpolicybindings": POLICY_BINDING,
    "flowcontrol.apiserver.k8s.io/prioritylevelconfigurations": table(
      "Type",
      "NominalConcurrencyShares",
      "Queues",
      "HandSize",
      "QueueLengthLimit",
      "Age",
    ),
    "flowcontrol.apiserver.k8s.io/flowschemas": table(
      "PriorityLevel",
      "MatchingPrecedence",
      "DistinguisherMethod",
      "Age",
      "MissingPL",
    ),
    "resource.k8s.io/deviceclasses": table("Age"),
    "resource.k8s.io/resourceclaims": table("State", "Age"),
    "resource.k8s.io/resourceclaimtemplates": table("Age"),
    "resource.k8s.io/resourceslices": table("Node", "Driver", "Pool", "Age"),
    "resource.k8s.io/devicetaintrules": table("Key", "Value", "Effect", "TimeAdded", "Age"),
    "/componentstatuses": table("Status", "Message", "Error"),
    // The real server leaves the "name" format off this kind's Name column.
    "storagemigration.k8s.io/storageversionmigrations": [
      col("Name", "string"),
      ...table("Resource", "Status").slice(1),
    ],
  };
}
