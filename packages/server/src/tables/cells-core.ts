/** Table cells of core kinds, as kube-apiserver's printers fill them. */
import { formatLabels, type Json, since } from "./format.js";

export interface Row {
  readonly cells: unknown[];
  readonly conditions?: unknown[];
}

type Cells = (o: Json, now: number) => Row;

interface ContainerTally {
  reason: string;
  restarts: number;
  ready: number;
  lastRestart: number;
}

function containerTally(pod: Json, initial: string): ContainerTally {
  const t: ContainerTally = { reason: initial, restarts: 0, ready: 0, lastRestart: 0 };
  let hasRunning = false;
  const statuses = [...((pod.status?.containerStatuses ?? []) as Json[])].reverse();
  for (const c of statuses) {
    t.restarts += c.restartCount ?? 0;
    const finished = c.lastState?.terminated?.finishedAt;
    if (finished) t.lastRestart = Math.max(t.lastRestart, Date.parse(finished));
    if (c.state?.waiting?.reason) t.reason = c.state.waiting.reason;
    else if (c.state?.terminated?.reason) t.reason = c.state.terminated.reason;
    else if (c.state?.terminated) {
      const term = c.state.terminated;
      t.reason = term.signal ? `Signal:${term.signal}` : `ExitCode:${term.exitCode ?? 0}`;
    } else if (c.ready && c.state?.running) {
      hasRunning = true;
      t.ready++;
    }
  }
  if (t.reason === "Completed" && hasRunning) {
    const ready = ((pod.status?.conditions ?? []) as Json[]).some(
      (c) => c.type === "Ready" && c.status === "True",
    );
    t.reason = ready ? "Running" : "NotReady";
  }
  return t;
}

/** The first init container still holding the pod back, as "Init:…", if any. */
function initReason(pod: Json): string | undefined {
  const inits = (pod.status?.initContainerStatuses ?? []) as Json[];
  const total = (pod.spec?.initContainers ?? []).length;
  for (const [i, c] of inits.entries()) {
    const term = c.state?.terminated;
    if (term && term.exitCode === 0) continue;
    if (c.started && c.state?.running) continue;
    if (term)
      return `Init:${term.reason || (term.signal ? `Signal:${term.signal}` : `ExitCode:${term.exitCode}`)}`;
    const waiting = c.state?.waiting?.reason;
    if (waiting && waiting !== "PodInitializing") return `Init:${waiting}`;
    return `Init:${i}/${total}`;
  }
  return undefined;
}

const pods: Cells = (pod, now) => {
  let reason = pod.status?.reason || pod.status?.phase || "";
  const gated = ((pod.status?.conditions ?? []) as Json[]).some(
    (c) => c.type === "PodScheduled" && c.reason === "SchedulingGated",
  );
  if (gated) reason = "SchedulingGated";
  const init = initReason(pod);
  const initialized = ((pod.status?.conditions ?? []) as Json[]).some(
    (c) => c.type === "Initialized" && c.status === "True",
  );
  const t = containerTally(pod, init ?? reason);
  if (init === undefined || initialized) reason = t.reason;
  else reason = init;
  if (pod.metadata.deletionTimestamp) reason = pod.status?.reason === "NodeLost" ? "Unknown" : "Terminating";
  const restarts =
    t.lastRestart > 0
      ? `${t.restarts} (${since(new Date(t.lastRestart).toISOString(), now)} ago)`
      : `${t.restarts}`;
  const gates = (pod.spec?.readinessGates ?? []) as Json[];
  const gatesTrue = gates.filter((g) =>
    ((pod.status?.conditions ?? []) as Json[]).some((c) => c.type === g.conditionType && c.status === "True"),
  ).length;
  const row: Row = {
    cells: [
      pod.metadata.name,
      `${t.ready}/${(pod.spec?.containers ?? []).length}`,
      reason,
      restarts,
      since(pod.metadata.creationTimestamp, now),
      pod.status?.podIP || "<none>",
      pod.spec?.nodeName || "<none>",
      pod.status?.nominatedNodeName || "<none>",
      gates.length > 0 ? `${gatesTrue}/${gates.length}` : "<none>",
    ],
  };
  const phase = pod.status?.phase;
  if (phase === "Succeeded" || phase === "Failed")
    return {
      ...row,
      conditions: [
        {
          type: "Completed",
          status: "True",
          reason: phase,
          message: phase === "Succeeded" ? "The pod has completed successfully." : "The pod failed.",
        },
      ],
    };
  return row;
};

function nodeStatus(node: Json): string {
  const ready = ((node.status?.conditions ?? []) as Json[]).find((c) => c.type === "Ready");
  const status = ready ? (ready.status === "True" ? "Ready" : "NotReady") : "Unknown";
  return node.spec?.unschedulable ? `${status},SchedulingDisabled` : status;
}

function nodeRoles(node: Json): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries((node.metadata.labels ?? {}) as Record<string, string>)) {
    if (k.startsWith("node-role.kubernetes.io/")) roles.add(k.slice("node-role.kubernetes.io/".length));
    else if (k === "kubernetes.io/role" && v) roles.add(v);
  }
  return roles.size === 0 ? "<none>" : [...roles].sort().join(",");
}

const address = (node: Json, type: string) =>
  ((node.status?.addresses ?? []) as Json[]).find((a) => a.type === type)?.address ?? "<none>";

function nodeKernel(info: Json): string {
  if (!info?.kernelVersion) return "<unknown>";
  return info.architecture ? `${info.kernelVersion} (${info.architecture})` : info.kernelVersion;
}

const nodes: Cells = (node, now) => ({
  cells: [
    node.metadata.name,
    nodeStatus(node),
    nodeRoles(node),
    since(node.metadata.creationTimestamp, now),
    node.status?.nodeInfo?.kubeletVersion ?? "",
    address(node, "InternalIP"),
    address(node, "ExternalIP"),
    node.status?.nodeInfo?.osImage || "<unknown>",
    nodeKernel(node.status?.nodeInfo),
    node.status?.nodeInfo?.containerRuntimeVersion || "<unknown>",
  ],
});

function serviceExternalIp(svc: Json): string {
  const spec = svc.spec ?? {};
  const external = (spec.externalIPs ?? []) as string[];
  switch (spec.type) {
    case "ExternalName":
      return spec.externalName ?? "<none>";
    case "LoadBalancer": {
      const ingress = ((svc.status?.loadBalancer?.ingress ?? []) as Json[]).map((i) => i.ip || i.hostname);
      const all = [...ingress, ...external];
      return all.length > 0 ? all.join(",") : "<pending>";
    }
    default:
      return external.length > 0 ? external.join(",") : "<none>";
  }
}

function servicePorts(svc: Json): string {
  const ports = (svc.spec?.ports ?? []) as Json[];
  if (ports.length === 0) return "<none>";
  return ports
    .map((p) => (p.nodePort ? `${p.port}:${p.nodePort}/${p.protocol}` : `${p.port}/${p.protocol}`))
    .join(",");
}

const services: Cells = (svc, now) => ({
  cells: [
    svc.metadata.name,
    svc.spec?.type ?? "",
    svc.spec?.clusterIP || "<none>",
    serviceExternalIp(svc),
    servicePorts(svc),
    since(svc.metadata.creationTimestamp, now),
    formatLabels(svc.spec?.selector),
  ],
});

function endpointSliceEndpoints(slice: Json): string {
  const addresses = ((slice.endpoints ?? []) as Json[]).flatMap((e) => e.addresses ?? []);
  if (addresses.length === 0) return "<unset>";
  const shown = addresses.slice(0, 3).join(",");
  return addresses.length > 3 ? `${shown} + ${addresses.length - 3} more...` : shown;
}

function endpointSlicePorts(slice: Json): string {
  const ports = (slice.ports ?? []) as Json[];
  if (ports.length === 0) return "<unset>";
  return ports.map((p) => (p.port === undefined || p.port === null ? "<unset>" : String(p.port))).join(",");
}

export const CORE_CELLS: Readonly<Record<string, Cells>> = {
  "/pods": pods,
  "/nodes": nodes,
  "/services": services,
  "/namespaces": (ns, now) => ({
    cells: [ns.metadata.name, ns.status?.phase ?? "", since(ns.metadata.creationTimestamp, now)],
  }),
  "/configmaps": (cm, now) => ({
    cells: [
      cm.metadata.name,
      Object.keys(cm.data ?? {}).length + Object.keys(cm.binaryData ?? {}).length,
      since(cm.metadata.creationTimestamp, now),
    ],
  }),
  "/secrets": (s, now) => ({
    cells: [
      s.metadata.name,
      s.type ?? "",
      Object.keys(s.data ?? {}).length,
      since(s.metadata.creationTimestamp, now),
    ],
  }),
  "/serviceaccounts": (sa, now) => ({ cells: [sa.metadata.name, since(sa.metadata.creationTimestamp, now)] }),
  "coordination.k8s.io/leases": (l, now) => ({
    cells: [l.metadata.name, l.spec?.holderIdentity ?? "", since(l.metadata.creationTimestamp, now)],
  }),
  "discovery.k8s.io/endpointslices": (s, now) => ({
    cells: [
      s.metadata.name,
      s.addressType ?? "",
      endpointSlicePorts(s),
      endpointSliceEndpoints(s),
      since(s.metadata.creationTimestamp, now),
    ],
  }),
};
