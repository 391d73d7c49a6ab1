/**
 * What the apiserver allocates for a Service at create: a cluster IP from the
 * service range (10.96.0.0/12 here), the IP family fields, and node ports for
 * NodePort and LoadBalancer services; an update that leaves them out keeps them.
 */
import type { StrategyContext } from "../strategy.js";

type KubeObject = Record<string, unknown>;

type Spec = Record<string, unknown> & {
  type?: string;
  clusterIP?: string;
  clusterIPs?: string[];
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
  ports?: Record<string, unknown>[];
};

const RANGE_BASE = (10 << 24) | (96 << 16); // 10.96.0.0
const RANGE_SIZE = 1 << 20; // a /12
const NODE_PORT_MIN = 30000;
const NODE_PORT_MAX = 32767;

const ipOf = (n: number): string => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");

function used(ctx: StrategyContext): { ips: Set<string>; nodePorts: Set<number> } {
  const ips = new Set<string>();
  const nodePorts = new Set<number>();
  for (const svc of ctx.store.list("/services").items) {
    const spec = (svc.spec ?? {}) as Spec;
    for (const ip of spec.clusterIPs ?? []) ips.add(ip);
    for (const p of spec.ports ?? []) if (typeof p.nodePort === "number") nodePorts.add(p.nodePort);
  }
  return { ips, nodePorts };
}

/** Fills in the cluster IP, IP families and node ports of a new Service. */
export function allocateServiceFields(ctx: StrategyContext, obj: KubeObject): void {
  const spec = (obj.spec ?? {}) as Spec;
  obj.spec = spec;
  if (spec.type === "ExternalName") return;
  const taken = used(ctx);
  if (spec.clusterIP === "None") {
    spec.clusterIPs = ["None"];
    // Headless without a selector (endpoints managed by hand) may use any family: both are asked for.
    if (spec.selector === undefined && spec.ipFamilyPolicy === undefined && spec.ipFamilies === undefined) {
      spec.ipFamilyPolicy = "RequireDualStack";
      spec.ipFamilies = ["IPv4", "IPv6"];
    }
  } else {
    if (!spec.clusterIP) {
      // .1 is the kubernetes Service's; the rest of the range is handed out in order.
      let n = 2;
      while (n < RANGE_SIZE - 1 && taken.ips.has(ipOf(RANGE_BASE + n))) n++;
      spec.clusterIP = ipOf(RANGE_BASE + n);
    }
    spec.clusterIPs = [spec.clusterIP];
  }
  spec.ipFamilies ??= ["IPv4"];
  spec.ipFamilyPolicy ??= "SingleStack";
  if (spec.type !== "NodePort" && spec.type !== "LoadBalancer") return;
  let next = NODE_PORT_MIN;
  for (const p of spec.ports ?? []) {
    if (typeof p.nodePort === "number") continue;
    while (next < NODE_PORT_MAX && taken.nodePorts.has(next)) next++;
    p.nodePort = next;
    taken.nodePorts.add(next);
  }
}

/** An update that leaves the allocated fields out keeps the stored ones. */
export function keepServiceAllocations(next: Record<string, unknown>, old: Record<string, unknown>): void {
  const spec = (next.spec ?? {}) as Spec;
  const before = (old.spec ?? {}) as Spec;
  if (spec.type === "ExternalName") return;
  for (const k of ["clusterIP", "clusterIPs", "ipFamilies", "ipFamilyPolicy"] as const)
    if (spec[k] === undefined && before[k] !== undefined) (spec as Record<string, unknown>)[k] = before[k];
  const oldPorts = new Map((before.ports ?? []).map((p) => [`${p.port}/${p.protocol}`, p.nodePort]));
  for (const p of spec.ports ?? [])
    if (p.nodePort === undefined && oldPorts.get(`${p.port}/${p.protocol}`) !== undefined)
      p.nodePort = oldPorts.get(`${p.port}/${p.protocol}`);
}
