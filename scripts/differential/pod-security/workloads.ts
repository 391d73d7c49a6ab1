/**
 * The workload kinds whose pod templates PodSecurity warns about, each wrapping a generated pod:
 * the collection path under a namespace and the object to create there.
 */
type Json = Record<string, unknown>;

export interface GeneratedPod {
  readonly annotations?: Json;
  readonly spec: Json;
}

interface Workload {
  readonly kind: string;
  readonly path: string;
  readonly body: (name: string, pod: GeneratedPod) => Json;
}

const template = (name: string, pod: GeneratedPod, spec: Json = pod.spec) => ({
  metadata: { labels: { app: name }, annotations: pod.annotations },
  spec,
});
const selected = (name: string, pod: GeneratedPod, extra: Json = {}) => ({
  selector: { matchLabels: { app: name } },
  template: template(name, pod),
  ...extra,
});
/** Jobs run their pods to completion: restartPolicy Never. */
const jobTemplate = (name: string, pod: GeneratedPod) =>
  template(name, pod, { ...pod.spec, restartPolicy: "Never" });

export const WORKLOADS: readonly Workload[] = [
  {
    kind: "Deployment",
    path: "apis/apps/v1/namespaces/{ns}/deployments",
    body: (n, p) => ({ spec: selected(n, p) }),
  },
  {
    kind: "ReplicaSet",
    path: "apis/apps/v1/namespaces/{ns}/replicasets",
    body: (n, p) => ({ spec: selected(n, p) }),
  },
  {
    kind: "StatefulSet",
    path: "apis/apps/v1/namespaces/{ns}/statefulsets",
    body: (n, p) => ({ spec: selected(n, p, { serviceName: n }) }),
  },
  {
    kind: "DaemonSet",
    path: "apis/apps/v1/namespaces/{ns}/daemonsets",
    body: (n, p) => ({ spec: selected(n, p) }),
  },
  {
    kind: "Job",
    path: "apis/batch/v1/namespaces/{ns}/jobs",
    body: (n, p) => ({ spec: { template: jobTemplate(n, p) } }),
  },
  {
    kind: "CronJob",
    path: "apis/batch/v1/namespaces/{ns}/cronjobs",
    body: (n, p) => ({
      spec: { schedule: "*/5 * * * *", jobTemplate: { spec: { template: jobTemplate(n, p) } } },
    }),
  },
  {
    kind: "ReplicationController",
    path: "api/v1/namespaces/{ns}/replicationcontrollers",
    body: (n, p) => ({ spec: { selector: { app: n }, template: template(n, p) } }),
  },
  {
    kind: "PodTemplate",
    path: "api/v1/namespaces/{ns}/podtemplates",
    body: (n, p) => ({ template: template(n, p) }),
  },
];
