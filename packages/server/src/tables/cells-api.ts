/** Table cells of HPAs, CRDs, API services, admission configuration, flow control and DRA kinds. */
import type { Row } from "./cells-core.js";
import { type Json, since } from "./format.js";

type Cells = (o: Json, now: number) => Row;

const age = (o: Json, now: number) => since(o.metadata.creationTimestamp, now);
/** A quantity as written; Go prints a missing one as "<nil>". */
const qty = (v: unknown): string => (v === undefined || v === null ? "<nil>" : String(v));

/** "current/target" of a metric given as a value or an average value (External and Object metrics). */
function valueMetric(target: Json, current: Json | undefined): string {
  if (target?.averageValue !== undefined && target?.averageValue !== null) {
    const now = current?.averageValue ?? "<unknown>";
    return `${now}/${target.averageValue} (avg)`;
  }
  return `${current ? qty(current.value) : "<unknown>"}/${qty(target?.value)}`;
}

/** "name: current/target" of a (container) resource metric. */
function resourceMetric(spec: Json, status: Json | undefined): string {
  const target = spec?.target;
  if (target?.averageValue !== undefined && target?.averageValue !== null)
    return `${spec.name}: ${status ? qty(status.current?.averageValue) : "<unknown>"}/${target.averageValue}`;
  const used = status?.current?.averageUtilization;
  const now = typeof used === "number" ? `${used}%` : "<unknown>";
  const want = typeof target?.averageUtilization === "number" ? `${target.averageUtilization}%` : "<auto>";
  return `${spec?.name}: ${now}/${want}`;
}

function hpaMetric(spec: Json, status: Json | undefined): string {
  switch (spec.type) {
    case "External":
      return valueMetric(spec.external?.target, status?.external?.current);
    case "Object":
      return valueMetric(spec.object?.target, status?.object?.current);
    case "Pods":
      return `${status?.pods ? qty(status.pods.current?.averageValue) : "<unknown>"}/${qty(spec.pods?.target?.averageValue)}`;
    case "Resource":
      return resourceMetric(spec.resource, status?.resource);
    case "ContainerResource":
      return resourceMetric(spec.containerResource, status?.containerResource);
    default:
      return "<unknown type>";
  }
}

/** Each metric's current and target value, two at most; each status is matched by position. */
function hpaTargets(hpa: Json): string {
  const specs = (hpa.spec?.metrics ?? []) as Json[];
  if (specs.length === 0) return "<none>";
  const statuses = (hpa.status?.currentMetrics ?? []) as Json[];
  const list = specs.slice(0, 2).map((s, i) => hpaMetric(s, statuses[i]));
  return specs.length > 2 ? `${list.join(", ")} + ${specs.length - 2} more...` : list.join(", ");
}

const hpas: Cells = (hpa, now) => ({
  cells: [
    hpa.metadata.name,
    `${hpa.spec?.scaleTargetRef?.kind ?? ""}/${hpa.spec?.scaleTargetRef?.name ?? ""}`,
    hpaTargets(hpa),
    typeof hpa.spec?.minReplicas === "number" ? String(hpa.spec.minReplicas) : "<unset>",
    hpa.spec?.maxReplicas ?? 0,
    hpa.status?.currentReplicas ?? 0,
    age(hpa, now),
  ],
});

/** The storage version (marked) and then the other served versions, by name. */
function crdVersions(crd: Json): string {
  const versions = (crd.spec?.versions ?? []) as Json[];
  const storage = versions.find((v) => v.storage && v.served);
  const others = versions
    .filter((v) => v.served && v !== storage)
    .map((v) => String(v.name))
    .sort();
  return [...(storage ? [`${storage.name}(storage)`] : []), ...others].join(",");
}

const crds: Cells = (crd) => ({
  cells: [
    crd.metadata.name,
    crd.spec?.scope ?? "",
    crdVersions(crd),
    crd.metadata.creationTimestamp ?? null,
    crd.spec?.group ?? "",
    crd.spec?.names?.kind ?? "",
    ((crd.spec?.names?.shortNames ?? []) as string[]).join(","),
    ((crd.status?.conditions ?? []) as Json[]).some((c) => c.type === "Established" && c.status === "True"),
  ],
});

/** The Available condition's status, with its reason when it is not True. */
function apiServiceAvailable(svc: Json): string {
  const c = ((svc.status?.conditions ?? []) as Json[]).find((x) => x.type === "Available");
  if (!c) return "Unknown";
  return c.status !== "True" && c.reason ? `${c.status} (${c.reason})` : c.status;
}

const apiServices: Cells = (svc, now) => {
  const ref = svc.spec?.service;
  return {
    cells: [
      svc.metadata.name,
      ref ? `${ref.namespace ?? ""}/${ref.name ?? ""}` : "Local",
      apiServiceAvailable(svc),
      age(svc, now),
    ],
  };
};

const webhooks: Cells = (c, now) => ({ cells: [c.metadata.name, (c.webhooks ?? []).length, age(c, now)] });

const paramKind = (p: Json) =>
  p.spec?.paramKind ? `${p.spec.paramKind.apiVersion}/${p.spec.paramKind.kind}` : "<unset>";

/** A label selector the way Go's generated String() writes the struct. */
function goSelector(sel: Json): string {
  const labels = Object.entries((sel.matchLabels ?? {}) as Record<string, string>)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}: ${v},`)
    .join("");
  const exprs = ((sel.matchExpressions ?? []) as Json[])
    .map(
      (e) =>
        `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(" ")}],},`,
    )
    .join("");
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}

/** The parameter object: namespace/name ("*" for any namespace), else its selector. */
function paramRef(binding: Json): string {
  const ref = binding.spec?.paramRef;
  if (!ref) return "<unset>";
  if (ref.name) return `${ref.namespace || "*"}/${ref.name}`;
  return ref.selector ? goSelector(ref.selector) : "<unset>";
}

const policyBinding: Cells = (b, now) => ({
  cells: [b.metadata.name, b.spec?.policyName ?? "", paramRef(b), age(b, now)],
});

const priorityLevels: Cells = (pl, now) => {
  const limited = pl.spec?.limited;
  const queuing = limited?.limitResponse?.queuing;
  return {
    cells: [
      pl.metadata.name,
      pl.spec?.type ?? "",
      limited ? (limited.nominalConcurrencyShares ?? 0) : "<none>",
      queuing ? (queuing.queues ?? 0) : "<none>",
      queuing ? (queuing.handSize ?? 0) : "<none>",
      queuing ? (queuing.queueLengthLimit ?? 0) : "<none>",
      age(pl, now),
    ],
  };
};

const flowSchemas: Cells = (fs, now) => {
  const dangling = ((fs.status?.conditions ?? []) as Json[]).find((c) => c.type === "Dangling");
  return {
    cells: [
      fs.metadata.name,
      fs.spec?.priorityLevelConfiguration?.name ?? "",
      fs.spec?.matchingPrecedence ?? 0,
      fs.spec?.distinguisherMethod?.type ?? "<none>",
      age(fs, now),
      dangling ? dangling.status : "?",
    ],
  };
};

/** deleted / pending / allocated[,reserved] */
function claimState(claim: Json): string {
  const states: string[] = [];
  if (claim.metadata.deletionTimestamp) states.push("deleted");
  if (!claim.status?.allocation) {
    if (!claim.metadata.deletionTimestamp) states.push("pending");
  } else {
    states.push("allocated");
    if ((claim.status.reservedFor ?? []).length > 0) states.push("reserved");
  }
  return states.join(",");
}

/** Healthy or Unhealthy by the Healthy condition (Unknown without one), with its message and error. */
const componentStatuses: Cells = (cs) => {
  const c = ((cs.conditions ?? []) as Json[]).find((x) => x.type === "Healthy");
  const status = c ? (c.status === "True" ? "Healthy" : "Unhealthy") : "Unknown";
  return { cells: [cs.metadata.name, status, c?.message ?? "", c?.error ?? ""] };
};

/** The migrated resource as resource.group, and the migration's outcome (Unknown until one is known). */
const storageVersionMigrations: Cells = (m) => {
  const res = m.spec?.resource ?? {};
  const done = ((m.status?.conditions ?? []) as Json[]).filter((c) => c.status === "True").map((c) => c.type);
  const status = ["Succeeded", "Failed", "Running"].find((type) => done.includes(type)) ?? "Unknown";
  return {
    cells: [m.metadata.name, res.group ? `${res.resource}.${res.group}` : (res.resource ?? ""), status],
  };
};

const nameAndAge: Cells = (o, now) => ({ cells: [o.metadata.name, age(o, now)] });

export const API_CELLS: Readonly<Record<string, Cells>> = {
  "autoscaling/horizontalpodautoscalers": hpas,
  "apiextensions.k8s.io/customresourcedefinitions": crds,
  "apiregistration.k8s.io/apiservices": apiServices,
  "admissionregistration.k8s.io/validatingwebhookconfigurations": webhooks,
  "admissionregistration.k8s.io/mutatingwebhookconfigurations": webhooks,
  "admissionregistration.k8s.io/validatingadmissionpolicies": (p, now) => ({
    cells: [p.metadata.name, (p.spec?.validations ?? []).length, paramKind(p), age(p, now)],
  }),
  "admissionregistration.k8s.io/mutatingadmissionpolicies": (p, now) => ({
    cells: [p.metadata.name, (p.spec?.mutations ?? []).length, paramKind(p), age(p, now)],
  }),
  "admissionregistration.k8s.io/validatingadmissionpolicybindings": policyBinding,
  "admissionregistration.k8s.io/mutatingadmissionpolicybindings": policyBinding,
  "flowcontrol.apiserver.k8s.io/prioritylevelconfigurations": priorityLevels,
  "flowcontrol.apiserver.k8s.io/flowschemas": flowSchemas,
  "/componentstatuses": componentStatuses,
  "storagemigration.k8s.io/storageversionmigrations": storageVersionMigrations,
  "resource.k8s.io/deviceclasses": nameAndAge,
  "resource.k8s.io/resourceclaimtemplates": nameAndAge,
  "resource.k8s.io/resourceclaims": (c, now) => ({ cells: [c.metadata.name, claimState(c), age(c, now)] }),
  "resource.k8s.io/resourceslices": (s, now) => ({
    cells: [
      s.metadata.name,
      s.spec?.nodeName ?? "",
      s.spec?.driver ?? "",
      s.spec?.pool?.name ?? "",
      age(s, now),
    ],
  }),
  "resource.k8s.io/devicetaintrules": (r, now) => {
    const taint = r.spec?.taint ?? {};
    return {
      cells: [
        r.metadata.name,
        taint.key ?? "",
        taint.value ?? "",
        taint.effect ?? "",
        since(taint.timeAdded, now),
        age(r, now),
      ],
    };
  },
};
