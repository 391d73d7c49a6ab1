/** Table cells of events, endpoints, ingresses, service CIDRs, IP addresses, HPAs and CSRs. */
import type { Row } from "./cells-core.js";
import { humanDuration, type Json, since } from "./format.js";

type Cells = (o: Json, now: number) => Row;

const age = (o: Json, now: number) => since(o.metadata.creationTimestamp, now);

/** "a,b,c + N more..." once a list passes three entries. */
function firstThree(items: readonly string[], total = items.length): string {
  const shown = items.slice(0, 3).join(",");
  return total > 3 ? `${shown} + ${total - 3} more...` : shown;
}

/** An events.k8s.io Event read with the core Event's field names. */
function asCoreEvent(e: Json): Json {
  if (!("regarding" in e || "note" in e || "deprecatedSource" in e)) return e;
  return {
    ...e,
    involvedObject: e.regarding,
    message: e.note,
    source: e.deprecatedSource,
    firstTimestamp: e.deprecatedFirstTimestamp,
    lastTimestamp: e.deprecatedLastTimestamp,
    count: e.deprecatedCount,
  };
}

/** The reporting component (and instance, when there is one). */
function eventSource(e: Json): string {
  const component = e.source?.component || e.reportingComponent || e.reportingController || "";
  const instance = e.source?.host || e.reportingInstance || "";
  return instance ? `${component}, ${instance}` : component;
}

const events: Cells = (raw, now) => {
  const e = asCoreEvent(raw);
  const first = e.firstTimestamp ? since(e.firstTimestamp, now) : since(e.eventTime, now);
  let last = e.lastTimestamp ? since(e.lastTimestamp, now) : first;
  let count = e.count ?? 0;
  if (e.series) {
    last = since(e.series.lastObservedTime, now);
    count = e.series.count ?? 0;
  } else if (count === 0) count = 1;
  const kind = String(e.involvedObject?.kind ?? "").toLowerCase();
  const name = e.involvedObject?.name;
  return {
    cells: [
      last,
      e.type ?? "",
      e.reason ?? "",
      name ? `${kind}/${name}` : kind,
      e.involvedObject?.fieldPath ?? "",
      eventSource(e),
      String(e.message ?? "").trim(),
      first,
      count,
      e.metadata.name,
    ],
  };
};

/** An IP ready to take a ":port" suffix (IPv6 in brackets). */
const hostPart = (ip: string) => (ip.includes(":") ? `[${ip}]` : ip);

/** ip:port for each port of each subset (bare IPs for subsets without ports), three at most. */
function endpointAddresses(ep: Json): string {
  const subsets = (ep.subsets ?? []) as Json[];
  if (subsets.length === 0) return "<none>";
  const list: string[] = [];
  for (const s of subsets) {
    const ips = ((s.addresses ?? []) as Json[]).map((a) => String(a.ip));
    const ports = (s.ports ?? []) as Json[];
    if (ports.length === 0) list.push(...ips);
    for (const p of ports) list.push(...ips.map((ip) => `${hostPart(ip)}:${p.port}`));
  }
  return firstThree(list);
}

/** The first three rule hosts ("*" when no rule names one); the rest counted. */
function ingressHosts(rules: readonly Json[]): string {
  const hosts: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (hosts.length === 3) more = true;
    if (!more && rule.host) hosts.push(rule.host);
  }
  if (hosts.length === 0) return "*";
  return more ? `${hosts.join(",")} + ${rules.length - 3} more...` : hosts.join(",");
}

/** Load-balancer IPs or host names, each once. */
function ingressAddress(ing: Json): string {
  const seen = new Set<string>();
  for (const i of (ing.status?.loadBalancer?.ingress ?? []) as Json[]) {
    const v = i.ip || i.hostname;
    if (v) seen.add(v);
  }
  return [...seen].join(",");
}

const ingresses: Cells = (ing, now) => ({
  cells: [
    ing.metadata.name,
    ing.spec?.ingressClassName ?? "<none>",
    ingressHosts(ing.spec?.rules ?? []),
    ingressAddress(ing),
    (ing.spec?.tls ?? []).length > 0 ? "80, 443" : "80",
    age(ing, now),
  ],
});

function ingressClassParameters(ic: Json): string {
  const p = ic.spec?.parameters;
  if (!p) return "<none>";
  return `${p.kind}${p.apiGroup ? `.${p.apiGroup}` : ""}/${p.name}`;
}

function ipParent(ip: Json): string {
  const ref = ip.spec?.parentRef;
  if (!ref) return "<none>";
  const resource = ref.group ? `${ref.resource}.${ref.group}` : ref.resource;
  return ref.namespace ? `${resource}/${ref.namespace}/${ref.name}` : `${resource}/${ref.name}`;
}

/** Approved or Denied (else Pending), then Failed and Issued when they apply. */
function csrCondition(csr: Json): string {
  const types = new Set(((csr.status?.conditions ?? []) as Json[]).map((c) => c.type));
  let status = types.has("Denied") ? "Denied" : types.has("Approved") ? "Approved" : "Pending";
  if (types.has("Failed")) status += ",Failed";
  if (csr.status?.certificate) status += ",Issued";
  return status;
}

const csrs: Cells = (csr, now) => ({
  cells: [
    csr.metadata.name,
    age(csr, now),
    csr.spec?.signerName || "<none>",
    csr.spec?.username ?? "",
    typeof csr.spec?.expirationSeconds === "number"
      ? humanDuration(csr.spec.expirationSeconds * 1000)
      : "<none>",
    csrCondition(csr),
  ],
});

export const NETWORK_CELLS: Readonly<Record<string, Cells>> = {
  "/events": events,
  "events.k8s.io/events": events,
  "/endpoints": (ep, now) => ({ cells: [ep.metadata.name, endpointAddresses(ep), age(ep, now)] }),
  "networking.k8s.io/ingresses": ingresses,
  "networking.k8s.io/ingressclasses": (ic, now) => ({
    cells: [ic.metadata.name, ic.spec?.controller ?? "", ingressClassParameters(ic), age(ic, now)],
  }),
  "networking.k8s.io/servicecidrs": (c, now) => ({
    cells: [c.metadata.name, ((c.spec?.cidrs ?? []) as string[]).join(","), age(c, now)],
  }),
  "networking.k8s.io/ipaddresses": (ip, now) => ({ cells: [ip.metadata.name, ipParent(ip), age(ip, now)] }),
  "certificates.k8s.io/certificatesigningrequests": csrs,
};
