/**
 * Column definitions of the built-in kinds kubectl prints, as kube-apiserver serves them in
 * Tables (names, types, priorities and descriptions are part of the wire contract).
 */

export interface ColumnDefinition {
  readonly name: string;
  readonly type: string;
  readonly format: string;
  readonly description: string;
  readonly priority: number;
}

const NAME =
  "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";
const AGE =
  "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

const col = (
  name: string,
  type: string,
  description: string,
  priority = 0,
  format = "",
): ColumnDefinition => ({
  name,
  type,
  format,
  description,
  priority,
});

export const BUILTIN_COLUMNS: Readonly<Record<string, readonly ColumnDefinition[]>> = {
  "/pods": [
    col("Name", "string", NAME, 0, "name"),
    col("Ready", "string", "The aggregate readiness state of this pod for accepting traffic."),
    col("Status", "string", "The aggregate status of the containers in this pod."),
    col(
      "Restarts",
      "string",
      "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.",
    ),
    col("Age", "string", AGE),
    col(
      "IP",
      "string",
      "podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.",
      1,
    ),
    col(
      "Node",
      "string",
      "NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename",
      1,
    ),
    col(
      "Nominated Node",
      "string",
      "nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.",
      1,
    ),
    col(
      "Readiness Gates",
      "string",
      'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates',
      1,
    ),
  ],
  "/nodes": [
    col("Name", "string", NAME, 0, "name"),
    col("Status", "string", "The status of the node"),
    col("Roles", "string", "The roles of the node"),
    col("Age", "string", AGE),
    col("Version", "string", "Kubelet Version reported by the node."),
    col(
      "Internal-IP",
      "string",
      "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).",
      1,
    ),
    col(
      "External-IP",
      "string",
      "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).",
      1,
    ),
    col(
      "OS-Image",
      "string",
      "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).",
      1,
    ),
    col(
      "Kernel-Version",
      "string",
      "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
      1,
    ),
    col(
      "Container-Runtime",
      "string",
      "ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).",
      1,
    ),
  ],
  "/namespaces": [
    col("Name", "string", NAME, 0, "name"),
    col("Status", "string", "The status of the namespace"),
    col("Age", "string", AGE),
  ],
  "/services": [
    col("Name", "string", NAME, 0, "name"),
    col(
      "Type",
      "string",
      'type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer. "ClusterIP" allocates a cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by the selector or if that is not specified, by manual construction of an Endpoints object or EndpointSlice objects. If clusterIP is "None", no virtual IP is allocated and the endpoints are published as a set of endpoints rather than a virtual IP. "NodePort" builds on ClusterIP and allocates a port on every node which routes to the same endpoints as the clusterIP. "LoadBalancer" builds on NodePort and creates an external load-balancer (if supported in the current cloud) which routes to the same endpoints as the clusterIP. "ExternalName" aliases this service to the specified externalName. Several other fields do not apply to ExternalName services. More info: https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types',
    ),
    col(
      "Cluster-IP",
      "string",
      'clusterIP is the IP address of the service and is usually assigned randomly. If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName (which requires this field to be blank) or the type field is being changed from ExternalName (in which case this field may optionally be specified, as describe above).  Valid values are "None", empty string (""), or a valid IP address. Setting this to "None" makes a "headless service" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of type ExternalName, creation will fail. This field will be wiped when updating a Service to type ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies',
    ),
    col(
      "External-IP",
      "string",
      "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.  These IPs are not managed by Kubernetes.  The user is responsible for ensuring that traffic arrives at a node with this IP.  A common example is external load-balancers that are not part of the Kubernetes system.",
    ),
    col(
      "Port(s)",
      "string",
      "The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies",
    ),
    col("Age", "string", AGE),
    col(
      "Selector",
      "string",
      "Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/",
      1,
    ),
  ],
  "/configmaps": [
    col("Name", "string", NAME, 0, "name"),
    col(
      "Data",
      "string",
      "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.",
    ),
    col("Age", "string", AGE),
  ],
  "/secrets": [
    col("Name", "string", NAME, 0, "name"),
    col(
      "Type",
      "string",
      "Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types",
    ),
    col(
      "Data",
      "string",
      "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4",
    ),
    col("Age", "string", AGE),
  ],
  "/serviceaccounts": [col("Name", "string", NAME, 0, "name"), col("Age", "string", AGE)],
  "apps/deployments": [
    col("Name", "string", NAME, 0, "name"),
    col("Ready", "string", "Number of the pod with ready state"),
    col(
      "Up-to-date",
      "string",
      "Total number of non-terminating pods targeted by this deployment that have the desired template spec.",
    ),
    col(
      "Available",
      "string",
      "Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment.",
    ),
    col("Age", "string", AGE),
    col("Containers", "string", "Names of each container in the template.", 1),
    col("Images", "string", "Images referenced by each container in the template.", 1),
    col(
      "Selector",
      "string",
      "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment. It must match the pod template's labels.",
      1,
    ),
  ],
  "apps/replicasets": [
    col("Name", "string", NAME, 0, "name"),
    col(
      "Desired",
      "integer",
      "Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset",
    ),
    col(
      "Current",
      "integer",
      "Replicas is the most recently observed number of non-terminating pods. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset",
    ),
    col(
      "Ready",
      "integer",
      "The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.",
    ),
    col("Age", "string", AGE),
    col("Containers", "string", "Names of each container in the template.", 1),
    col("Images", "string", "Images referenced by each container in the template.", 1),
    col(
      "Selector",
      "string",
      "Selector is a label query over pods that should match the replica count. Label keys and values that must match in order to be controlled by this replica set. It must match the pod template's labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
      1,
    ),
  ],
  "apps/daemonsets": [
    col("Name", "string", NAME, 0, "name"),
    col(
      "Desired",
      "integer",
      "The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/",
    ),
    col(
      "Current",
      "integer",
      "The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/",
    ),
    col(
      "Ready",
      "integer",
      "numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.",
    ),
    col("Up-to-date", "integer", "The total number of nodes that are running updated daemon pod"),
    col(
      "Available",
      "integer",
      "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)",
    ),
    col(
      "Node Selector",
      "string",
      "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/",
    ),
    col("Age", "string", AGE),
    col("Containers", "string", "Names of each container in the template.", 1),
    col("Images", "string", "Images referenced by each container in the template.", 1),
    col(
      "Selector",
      "string",
      "A label query over pods that are managed by the daemon set. Must match in order to be controlled. It must match the pod template's labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
      1,
    ),
  ],
  "apps/statefulsets": [
    col("Name", "string", NAME, 0, "name"),
    col("Ready", "string", "Number of the pod with ready state"),
    col("Age", "string", AGE),
    col("Containers", "string", "Names of each container in the template.", 1),
    col("Images", "string", "Images referenced by each container in the template.", 1),
  ],
  "apps/controllerrevisions": [
    col("Name", "string", NAME, 0, "name"),
    col("Controller", "string", "Controller of the object"),
    col("Revision", "string", "Revision indicates the revision of the state represented by Data."),
    col("Age", "string", AGE),
  ],
  "batch/jobs": [
    col("Name", "string", NAME, 0, "name"),
    col("Status", "string", "Status of the job."),
    col(
      "Completions",
      "string",
      "The number of pods which reached phase Succeeded. The value increases monotonically for a given spec. However, it may decrease in reaction to scale down of elastic indexed jobs.",
    ),
    col("Duration", "string", "Time required to complete the job."),
    col("Age", "string", AGE),
    col("Containers", "string", "Names of each container in the template.", 1),
    col("Images", "string", "Images referenced by each container in the template.", 1),
    col(
      "Selector",
      "string",
      "A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
      1,
    ),
  ],
  "batch/cronjobs": [
    col("Name", "string", NAME, 0, "name"),
    col("Schedule", "string", "The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron."),
    col(
      "Timezone",
      "string",
      "The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones",
    ),
    col(
      "Suspend",
      "boolean",
      "This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.",
    ),
    col("Active", "integer", "A list of pointers to currently running jobs."),
    col("Last Schedule", "string", "Information when was the last time the job was successfully scheduled."),
    col("Age", "string", AGE),
    col("Containers", "string", "Names of each container in the template.", 1),
    col("Images", "string", "Images referenced by each container in the template.", 1),
    col(
      "Selector",
      "string",
      "A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
      1,
    ),
  ],
  "discovery.k8s.io/endpointslices": [
    col("Name", "string", NAME, 0, "name"),
    col(
      "AddressType",
      "string",
      'addressType specifies the type of address carried by this EndpointSlice. All addresses in this slice must be the same type. This field is immutable after creation. The following address types are currently supported: * IPv4: Represents an IPv4 Address. * IPv6: Represents an IPv6 Address. * FQDN: Represents a Fully Qualified Domain Name. (Deprecated) The EndpointSlice controller only generates, and kube-proxy only processes, slices of addressType "IPv4" and "IPv6". No semantics are defined for the "FQDN" type.',
    ),
    col(
      "Ports",
      "string",
      "ports specifies the list of network ports exposed by each endpoint in this slice. Each port must have a unique name. Each slice may include a maximum of 100 ports. Services always have at least 1 port, so EndpointSlices generated by the EndpointSlice controller will likewise always have at least 1 port. EndpointSlices used for other purposes may have an empty ports list.",
    ),
    col(
      "Endpoints",
      "string",
      "endpoints is a list of unique endpoints in this slice. Each slice may include a maximum of 1000 endpoints.",
    ),
    col("Age", "string", AGE),
  ],
  "coordination.k8s.io/leases": [
    col("Name", "string", NAME, 0, "name"),
    col(
      "Holder",
      "string",
      "holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.",
    ),
    col("Age", "string", AGE),
  ],
  "policy/poddisruptionbudgets": [
    col("Name", "string", NAME, 0, "name"),
    col("Min Available", "string", "The minimum number of pods that must be available."),
    col("Max Unavailable", "string", "The maximum number of pods that may be unavailable."),
    col("Allowed Disruptions", "integer", "Calculated number of pods that may be disrupted at this time."),
    col("Age", "string", AGE),
  ],
  "/replicationcontrollers": [
    col("Name", "string", NAME, 0, "name"),
    col(
      "Desired",
      "integer",
      "Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller",
    ),
    col(
      "Current",
      "integer",
      "Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller",
    ),
    col("Ready", "integer", "The number of ready replicas for this replication controller."),
    col("Age", "string", AGE),
    col("Containers", "string", "Names of each container in the template.", 1),
    col("Images", "string", "Images referenced by each container in the template.", 1),
    col(
      "Selector",
      "string",
      "Selector is a label query over pods that should match the Replicas count. If Selector is empty, it is defaulted to the labels present on the Pod template. Label keys and values that must match in order to be controlled by this replication controller, if empty defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
      1,
    ),
  ],
  "rbac.authorization.k8s.io/rolebindings": [
    col("Name", "string", NAME, 0, "name"),
    col(
      "Role",
      "string",
      "roleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.",
    ),
    col("Age", "string", AGE),
    col("Users", "string", "Users in the roleBinding", 1),
    col("Groups", "string", "Groups in the roleBinding", 1),
    col("ServiceAccounts", "string", "ServiceAccounts in the roleBinding", 1),
  ],
  "rbac.authorization.k8s.io/clusterrolebindings": [
    col("Name", "string", NAME, 0, "name"),
    col(
      "Role",
      "string",
      "roleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.",
    ),
    col("Age", "string", AGE),
    col("Users", "string", "Users in the clusterRoleBinding", 1),
    col("Groups", "string", "Groups in the clusterRoleBinding", 1),
    col("ServiceAccounts", "string", "ServiceAccounts in the clusterRoleBinding", 1),
  ],
  "scheduling.k8s.io/priorityclasses": [
    col("Name", "string", NAME, 0, "name"),
    col(
      "Value",
      "integer",
      "value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.",
    ),
    col(
      "Global-Default",
      "boolean",
      "globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.",
    ),
    col("Age", "string", AGE),
    col(
      "PreemptionPolicy",
      "string",
      "preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.",
    ),
  ],
  "networking.k8s.io/networkpolicies": [
    col("Name", "string", NAME, 0, "name"),
    col(
      "Pod-Selector",
      "string",
      "podSelector selects the pods to which this NetworkPolicy object applies. The array of rules is applied to any pods selected by this field. An empty selector matches all pods in the policy's namespace. Multiple network policies can select the same set of pods. In this case, the ingress rules for each are combined additively. This field is optional. If it is not specified, it defaults to an empty selector.",
    ),
    col("Age", "string", AGE),
  ],
  "node.k8s.io/runtimeclasses": [
    col("Name", "string", NAME, 0, "name"),
    col("Handler", "string", ""),
    col("Age", "string", AGE),
  ],
};
