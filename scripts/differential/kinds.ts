/**
 * Every built-in kind the reference server can create, with the smallest object both servers accept,
 * so that a case varies only the name or the metadata. `fixedName` marks kinds whose name is tied to
 * their spec (only metadata varies there); `ipName` marks IPAddress, whose names are addresses.
 */
export interface KindUnderTest {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
  /** The object without metadata; `ns` is the namespace the cases run in. */
  readonly body: (fx: Fixtures) => Record<string, unknown>;
  readonly fixedName?: string;
  readonly ipName?: boolean;
}

/** What some minimal objects need that has to be made at run time. */
export interface Fixtures {
  readonly ns: string;
  /** A PEM CA certificate (ClusterTrustBundle trust anchors). */
  readonly caPem: string;
  /** A base64 PEM PKCS#10 request (CertificateSigningRequest). */
  readonly csrBase64: string;
}

const containers = [{ name: "c", image: "busybox" }];
const podTemplate = { metadata: { labels: { app: "x" } }, spec: { containers } };
const workload = { selector: { matchLabels: { app: "x" } }, template: podTemplate };
const jobTemplate = { template: { spec: { containers, restartPolicy: "Never" } } };
const rules = [{ apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["configmaps"] }];
const roleRef = { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "view" };

const k = (
  group: string,
  version: string,
  resource: string,
  kind: string,
  namespaced: boolean,
  body: KindUnderTest["body"],
  extra: Partial<KindUnderTest> = {},
): KindUnderTest => ({ group, version, resource, kind, namespaced, body, ...extra });

export const KINDS: readonly KindUnderTest[] = [
  k("", "v1", "configmaps", "ConfigMap", true, () => ({ data: { a: "b" } })),
  k("", "v1", "endpoints", "Endpoints", true, () => ({})),
  k("", "v1", "events", "Event", true, (fx) => ({
    involvedObject: { kind: "Pod", name: "p", namespace: fx.ns },
  })),
  k("", "v1", "limitranges", "LimitRange", true, () => ({
    spec: { limits: [{ type: "Container", default: { cpu: "100m" } }] },
  })),
  k("", "v1", "namespaces", "Namespace", false, () => ({})),
  k("", "v1", "nodes", "Node", false, () => ({})),
  k("", "v1", "persistentvolumeclaims", "PersistentVolumeClaim", true, () => ({
    spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
  })),
  k("", "v1", "persistentvolumes", "PersistentVolume", false, () => ({
    spec: { capacity: { storage: "1Gi" }, accessModes: ["ReadWriteOnce"], hostPath: { path: "/tmp/pv" } },
  })),
  k("", "v1", "pods", "Pod", true, () => ({ spec: { containers } })),
  k("", "v1", "podtemplates", "PodTemplate", true, () => ({ template: { spec: { containers } } })),
  k("", "v1", "replicationcontrollers", "ReplicationController", true, () => ({
    spec: { selector: { app: "x" }, template: podTemplate },
  })),
  k("", "v1", "resourcequotas", "ResourceQuota", true, () => ({ spec: { hard: { pods: "10" } } })),
  k("", "v1", "secrets", "Secret", true, () => ({ data: { a: "Yg==" } })),
  k("", "v1", "serviceaccounts", "ServiceAccount", true, () => ({})),
  k("", "v1", "services", "Service", true, () => ({ spec: { clusterIP: "None", ports: [{ port: 80 }] } })),
  k("apps", "v1", "controllerrevisions", "ControllerRevision", true, () => ({ revision: 1, data: {} })),
  k("apps", "v1", "daemonsets", "DaemonSet", true, () => ({ spec: workload })),
  k("apps", "v1", "deployments", "Deployment", true, () => ({ spec: workload })),
  k("apps", "v1", "replicasets", "ReplicaSet", true, () => ({ spec: workload })),
  k("apps", "v1", "statefulsets", "StatefulSet", true, () => ({ spec: { ...workload, serviceName: "s" } })),
  k("events.k8s.io", "v1", "events", "Event", true, (fx) => ({
    eventTime: "2026-01-01T00:00:00.000000Z",
    reportingController: "example.com/diff",
    reportingInstance: "i",
    action: "Act",
    reason: "Why",
    type: "Normal",
    regarding: { kind: "Pod", name: "p", namespace: fx.ns },
  })),
  k("autoscaling", "v2", "horizontalpodautoscalers", "HorizontalPodAutoscaler", true, () => ({
    spec: { scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "d" }, maxReplicas: 2 },
  })),
  k("batch", "v1", "cronjobs", "CronJob", true, () => ({
    spec: { schedule: "*/5 * * * *", jobTemplate: { spec: jobTemplate } },
  })),
  k("batch", "v1", "jobs", "Job", true, () => ({ spec: jobTemplate })),
  k("certificates.k8s.io", "v1", "certificatesigningrequests", "CertificateSigningRequest", false, (fx) => ({
    spec: { request: fx.csrBase64, signerName: "example.com/diff", usages: ["digital signature"] },
  })),
  k("certificates.k8s.io", "v1", "clustertrustbundles", "ClusterTrustBundle", false, (fx) => ({
    spec: { trustBundle: fx.caPem },
  })),
  k("networking.k8s.io", "v1", "ingressclasses", "IngressClass", false, () => ({
    spec: { controller: "example.com/diff" },
  })),
  k("networking.k8s.io", "v1", "ingresses", "Ingress", true, () => ({
    spec: { defaultBackend: { service: { name: "s", port: { number: 80 } } } },
  })),
  k(
    "networking.k8s.io",
    "v1",
    "ipaddresses",
    "IPAddress",
    false,
    (fx) => ({ spec: { parentRef: { group: "", resource: "services", name: "s", namespace: fx.ns } } }),
    { ipName: true },
  ),
  k("networking.k8s.io", "v1", "networkpolicies", "NetworkPolicy", true, () => ({
    spec: { podSelector: {} },
  })),
  k("networking.k8s.io", "v1", "servicecidrs", "ServiceCIDR", false, () => ({
    spec: { cidrs: ["10.200.0.0/24"] },
  })),
  k("policy", "v1", "poddisruptionbudgets", "PodDisruptionBudget", true, () => ({
    spec: { minAvailable: 1 },
  })),
  k("rbac.authorization.k8s.io", "v1", "clusterrolebindings", "ClusterRoleBinding", false, () => ({
    roleRef,
  })),
  k("rbac.authorization.k8s.io", "v1", "clusterroles", "ClusterRole", false, () => ({ rules: [] })),
  k("rbac.authorization.k8s.io", "v1", "rolebindings", "RoleBinding", true, () => ({ roleRef })),
  k("rbac.authorization.k8s.io", "v1", "roles", "Role", true, () => ({ rules: [] })),
  k("storage.k8s.io", "v1", "csidrivers", "CSIDriver", false, () => ({ spec: {} })),
  k("storage.k8s.io", "v1", "csinodes", "CSINode", false, () => ({ spec: { drivers: [] } })),
  k("storage.k8s.io", "v1", "csistoragecapacities", "CSIStorageCapacity", true, () => ({
    storageClassName: "sc",
  })),
  k("storage.k8s.io", "v1", "storageclasses", "StorageClass", false, () => ({
    provisioner: "example.com/diff",
  })),
  k("storage.k8s.io", "v1", "volumeattachments", "VolumeAttachment", false, () => ({
    spec: { attacher: "example.com", source: { persistentVolumeName: "pv" }, nodeName: "n" },
  })),
  k("storage.k8s.io", "v1", "volumeattributesclasses", "VolumeAttributesClass", false, () => ({
    driverName: "example.com",
    parameters: { a: "b" },
  })),
  k(
    "admissionregistration.k8s.io",
    "v1",
    "validatingwebhookconfigurations",
    "ValidatingWebhookConfiguration",
    false,
    () => ({}),
  ),
  k(
    "admissionregistration.k8s.io",
    "v1",
    "mutatingwebhookconfigurations",
    "MutatingWebhookConfiguration",
    false,
    () => ({}),
  ),
  k(
    "admissionregistration.k8s.io",
    "v1",
    "validatingadmissionpolicies",
    "ValidatingAdmissionPolicy",
    false,
    () => ({
      spec: { matchConstraints: { resourceRules: rules }, validations: [{ expression: "true" }] },
    }),
  ),
  k(
    "admissionregistration.k8s.io",
    "v1",
    "validatingadmissionpolicybindings",
    "ValidatingAdmissionPolicyBinding",
    false,
    () => ({
      spec: { policyName: "p", validationActions: ["Deny"] },
    }),
  ),
  k(
    "admissionregistration.k8s.io",
    "v1",
    "mutatingadmissionpolicies",
    "MutatingAdmissionPolicy",
    false,
    () => ({
      spec: {
        matchConstraints: { resourceRules: rules },
        mutations: [{ patchType: "ApplyConfiguration", applyConfiguration: { expression: "Object{}" } }],
        reinvocationPolicy: "Never",
      },
    }),
  ),
  k(
    "admissionregistration.k8s.io",
    "v1",
    "mutatingadmissionpolicybindings",
    "MutatingAdmissionPolicyBinding",
    false,
    () => ({
      spec: { policyName: "p" },
    }),
  ),
  k("scheduling.k8s.io", "v1", "priorityclasses", "PriorityClass", false, () => ({ value: 1000 })),
  k("coordination.k8s.io", "v1", "leases", "Lease", true, () => ({ spec: {} })),
  k("node.k8s.io", "v1", "runtimeclasses", "RuntimeClass", false, () => ({ handler: "runc" })),
  k("discovery.k8s.io", "v1", "endpointslices", "EndpointSlice", true, () => ({
    addressType: "IPv4",
    endpoints: [],
  })),
  k("resource.k8s.io", "v1", "deviceclasses", "DeviceClass", false, () => ({ spec: {} })),
  k("resource.k8s.io", "v1", "resourceclaims", "ResourceClaim", true, () => ({ spec: {} })),
  k("resource.k8s.io", "v1", "resourceclaimtemplates", "ResourceClaimTemplate", true, () => ({
    spec: { spec: {} },
  })),
  k("resource.k8s.io", "v1", "resourceslices", "ResourceSlice", false, () => ({
    spec: { driver: "example.com", pool: { name: "p", generation: 1, resourceSliceCount: 1 }, nodeName: "n" },
  })),
  k("flowcontrol.apiserver.k8s.io", "v1", "flowschemas", "FlowSchema", false, () => ({
    spec: { priorityLevelConfiguration: { name: "global-default" } },
  })),
  k(
    "flowcontrol.apiserver.k8s.io",
    "v1",
    "prioritylevelconfigurations",
    "PriorityLevelConfiguration",
    false,
    () => ({
      spec: { type: "Limited", limited: { nominalConcurrencyShares: 10, limitResponse: { type: "Reject" } } },
    }),
  ),
  k("storagemigration.k8s.io", "v1", "storageversionmigrations", "StorageVersionMigration", false, () => ({
    spec: { resource: { group: "apps", resource: "deployments" } },
  })),
  k(
    "apiregistration.k8s.io",
    "v1",
    "apiservices",
    "APIService",
    false,
    () => ({
      spec: {
        group: "diff.example.com",
        version: "v1",
        groupPriorityMinimum: 100,
        versionPriority: 10,
        service: { namespace: "default", name: "s" },
      },
    }),
    { fixedName: "v1.diff.example.com" },
  ),
];

export function pathOf(kind: KindUnderTest, ns: string): string {
  const base = kind.group === "" ? `/api/${kind.version}` : `/apis/${kind.group}/${kind.version}`;
  return kind.namespaced ? `${base}/namespaces/${ns}/${kind.resource}` : `${base}/${kind.resource}`;
}

export const kindId = (kind: KindUnderTest): string => `${kind.group || "core"}/${kind.resource}`;
