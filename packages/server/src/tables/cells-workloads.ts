/** Table cells of workload kinds (apps, batch, policy), as kube-apiserver's printers fill them. */
import type { Row } from "./cells-core.js";
import {
  containersAndImages,
  formatLabels,
  humanDuration,
  type Json,
  selectorString,
  since,
} from "./format.js";

type Cells = (o: Json, now: number) => Row;

const age = (o: Json, now: number) => since(o.metadata.creationTimestamp, now);
const wide = (o: Json) => [...containersAndImages(o.spec?.template), selectorString(o.spec?.selector)];

const replicaCounts: Cells = (o, now) => ({
  cells: [
    o.metadata.name,
    o.spec?.replicas ?? 0,
    o.status?.replicas ?? 0,
    o.status?.readyReplicas ?? 0,
    age(o, now),
    ...containersAndImages(o.spec?.template),
    o.spec?.selector &&
    typeof o.spec.selector === "object" &&
    !("matchLabels" in o.spec.selector || "matchExpressions" in o.spec.selector)
      ? formatLabels(o.spec.selector)
      : selectorString(o.spec?.selector),
  ],
});

function jobStatus(job: Json): string {
  const has = (type: string) =>
    ((job.status?.conditions ?? []) as Json[]).some((c) => c.type === type && c.status === "True");
  for (const type of ["Complete", "Failed", "Suspended", "FailureTarget", "SuccessCriteriaMet"])
    if (has(type)) return type;
  return job.metadata.deletionTimestamp ? "Terminating" : "Running";
}

function jobCompletions(job: Json): string {
  const succeeded = job.status?.succeeded ?? 0;
  if (job.spec?.completions !== undefined && job.spec?.completions !== null)
    return `${succeeded}/${job.spec.completions}`;
  const parallelism = job.spec?.parallelism ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function jobDuration(job: Json, now: number): string {
  const start = job.status?.startTime;
  if (!start) return "";
  const end = job.status?.completionTime ? Date.parse(job.status.completionTime) : now;
  return humanDuration(end - Date.parse(start));
}

function controllerOf(o: Json): string {
  const ref = ((o.metadata.ownerReferences ?? []) as Json[]).find((r) => r.controller === true);
  if (!ref) return "<none>";
  const group = String(ref.apiVersion ?? "").includes("/") ? String(ref.apiVersion).split("/")[0] : "";
  return `${String(ref.kind).toLowerCase()}${group ? `.${group}` : ""}/${ref.name}`;
}

const intOrNA = (v: unknown) => (v === undefined || v === null ? "N/A" : String(v));

export const WORKLOAD_CELLS: Readonly<Record<string, Cells>> = {
  "apps/deployments": (d, now) => ({
    cells: [
      d.metadata.name,
      `${d.status?.readyReplicas ?? 0}/${d.spec?.replicas ?? 0}`,
      d.status?.updatedReplicas ?? 0,
      d.status?.availableReplicas ?? 0,
      age(d, now),
      ...wide(d),
    ],
  }),
  "apps/replicasets": replicaCounts,
  "/replicationcontrollers": replicaCounts,
  "apps/daemonsets": (ds, now) => ({
    cells: [
      ds.metadata.name,
      ds.status?.desiredNumberScheduled ?? 0,
      ds.status?.currentNumberScheduled ?? 0,
      ds.status?.numberReady ?? 0,
      ds.status?.updatedNumberScheduled ?? 0,
      ds.status?.numberAvailable ?? 0,
      formatLabels(ds.spec?.template?.spec?.nodeSelector),
      age(ds, now),
      ...wide(ds),
    ],
  }),
  "apps/statefulsets": (s, now) => ({
    cells: [
      s.metadata.name,
      `${s.status?.readyReplicas ?? 0}/${s.spec?.replicas ?? 0}`,
      age(s, now),
      ...containersAndImages(s.spec?.template),
    ],
  }),
  "apps/controllerrevisions": (r, now) => ({
    cells: [r.metadata.name, controllerOf(r), r.revision ?? 0, age(r, now)],
  }),
  "batch/jobs": (j, now) => ({
    cells: [j.metadata.name, jobStatus(j), jobCompletions(j), jobDuration(j, now), age(j, now), ...wide(j)],
  }),
  "batch/cronjobs": (cj, now) => ({
    cells: [
      cj.metadata.name,
      cj.spec?.schedule ?? "",
      cj.spec?.timeZone ?? "<none>",
      cj.spec?.suspend === undefined || cj.spec?.suspend === null
        ? "<unset>"
        : cj.spec.suspend
          ? "True"
          : "False",
      (cj.status?.active ?? []).length,
      cj.status?.lastScheduleTime ? since(cj.status.lastScheduleTime, now) : "<none>",
      age(cj, now),
      ...containersAndImages(cj.spec?.jobTemplate?.spec?.template),
      selectorString(cj.spec?.jobTemplate?.spec?.selector),
    ],
  }),
  "policy/poddisruptionbudgets": (p, now) => ({
    cells: [
      p.metadata.name,
      intOrNA(p.spec?.minAvailable),
      intOrNA(p.spec?.maxUnavailable),
      p.status?.disruptionsAllowed ?? 0,
      age(p, now),
    ],
  }),
};
