/**
 * Quota evaluators, one per kind of object quota measures (upstream's quota registry): which
 * requests an evaluator handles, which quota resource names it answers for, what an object costs,
 * what a pod must declare, and which quota scopes an object falls in. Any other namespaced
 * resource is counted as `count/<resource>[.<group>]` on create.
 */
import type { ResourceList } from "./amounts.js";
import {
  containerUsage,
  isBestEffort,
  isTerminating,
  podContainers,
  podUsage,
  priorityClassOf,
  usesCrossNamespaceAffinity,
} from "./pod-usage.js";

type Json = Record<string, unknown>;

export interface ScopeSelector {
  readonly scopeName: string;
  readonly operator: string;
  readonly values?: readonly string[];
}

export interface QuotaEvaluator {
  handles(operation: string, subresource: string): boolean;
  /** The names among `names` this evaluator accounts for. */
  matching(names: readonly string[]): string[];
  usage(obj: Json, now: number): ResourceList;
  /** Why the object may not be charged against `required` (pods: undeclared cpu/memory). */
  constraints(required: readonly string[], obj: Json): string | undefined;
  matchesScope(selector: ScopeSelector, obj: Json): boolean;
}

const record = (v: unknown): Json =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {};

/** Resource names quota writes as a count (`count/pods`, `count/deployments.apps`). */
export function countName(group: string, resource: string): string {
  return group === "" ? `count/${resource}` : `count/${resource}.${group}`;
}

/** Legacy names counting objects of a kind, beside their `count/` form. */
const LEGACY_COUNT: Readonly<Record<string, string>> = {
  configmaps: "configmaps",
  replicationcontrollers: "replicationcontrollers",
  resourcequotas: "resourcequotas",
  secrets: "secrets",
};

function objectCount(group: string, resource: string): QuotaEvaluator {
  const names = [countName(group, resource), ...(group === "" && LEGACY_COUNT[resource] ? [resource] : [])];
  return {
    handles: (op, sub) => op === "CREATE" && sub === "",
    matching: (input) => input.filter((n) => names.includes(n)),
    usage: () => Object.fromEntries(names.map((n) => [n, "1"])),
    constraints: () => undefined,
    matchesScope: () => false,
  };
}

const POD_NAMES = new Set([
  "count/pods",
  "pods",
  "cpu",
  "memory",
  "ephemeral-storage",
  "requests.cpu",
  "requests.memory",
  "requests.ephemeral-storage",
  "limits.cpu",
  "limits.memory",
  "limits.ephemeral-storage",
]);
/** Quota on these makes every container declare them (a historical rule upstream keeps). */
const MUST_DECLARE = new Set([
  "cpu",
  "memory",
  "requests.cpu",
  "requests.memory",
  "limits.cpu",
  "limits.memory",
]);

function podMatchesScope(selector: ScopeSelector, pod: Json): boolean {
  switch (selector.scopeName) {
    case "Terminating":
      return isTerminating(pod);
    case "NotTerminating":
      return !isTerminating(pod);
    case "BestEffort":
      return isBestEffort(pod);
    case "NotBestEffort":
      return !isBestEffort(pod);
    case "CrossNamespacePodAffinity":
      return usesCrossNamespaceAffinity(pod);
    case "PriorityClass": {
      const name = priorityClassOf(pod);
      const values = selector.values ?? [];
      if (selector.operator === "Exists") return name !== "";
      if (selector.operator === "DoesNotExist") return name === "";
      if (selector.operator === "In") return name !== "" && values.includes(name);
      return name === "" || !values.includes(name);
    }
    default:
      return false;
  }
}

const pods: QuotaEvaluator = {
  handles: (op, sub) => (op === "CREATE" && sub === "") || (op === "UPDATE" && sub === "resize"),
  matching: (input) =>
    input.filter(
      (n) =>
        POD_NAMES.has(n) ||
        n.startsWith("hugepages-") ||
        n.startsWith("requests.hugepages-") ||
        (n.startsWith("requests.") && n.includes("/") && !n.slice(9).startsWith("kubernetes.io/")),
    ),
  usage: (pod, now) => podUsage(pod, now),
  constraints(required, pod) {
    const wanted = required.filter((r) => MUST_DECLARE.has(r));
    const missing = new Map<string, Set<string>>();
    for (const c of podContainers(pod)) {
      const has = containerUsage(c);
      for (const r of wanted)
        if (has[r] === undefined) missing.set(r, (missing.get(r) ?? new Set()).add(String(c.name ?? "")));
    }
    if (missing.size === 0) return undefined;
    const parts = [...missing.keys()]
      .sort()
      .map((r) => `${r} for: ${[...(missing.get(r) ?? [])].sort().join(",")}`);
    return `must specify ${parts.join("; ")}`;
  },
  matchesScope: podMatchesScope,
};

const SERVICE_NAMES = ["count/services", "services", "services.loadbalancers", "services.nodeports"];

const services: QuotaEvaluator = {
  handles: (op, sub) => (op === "CREATE" || op === "UPDATE") && sub === "",
  matching: (input) => input.filter((n) => SERVICE_NAMES.includes(n)),
  usage(svc) {
    const spec = record(svc.spec);
    const ports = Array.isArray(spec.ports) ? spec.ports.length : 0;
    const out: ResourceList = {
      "count/services": "1",
      services: "1",
      "services.loadbalancers": "0",
      "services.nodeports": "0",
    };
    if (spec.type === "NodePort") out["services.nodeports"] = String(ports);
    if (spec.type === "LoadBalancer") {
      out["services.loadbalancers"] = "1";
      // A LoadBalancer allocates node ports unless told not to.
      if (spec.allocateLoadBalancerNodePorts !== false) out["services.nodeports"] = String(ports);
    }
    return out;
  },
  constraints: () => undefined,
  matchesScope: () => false,
};

const CLASS_SUFFIX = ".storageclass.storage.k8s.io/";

const persistentVolumeClaims: QuotaEvaluator = {
  handles: (op, sub) => (op === "CREATE" || op === "UPDATE") && sub === "",
  matching: (input) =>
    input.filter(
      (n) =>
        n === "count/persistentvolumeclaims" ||
        n === "persistentvolumeclaims" ||
        n === "requests.storage" ||
        n.endsWith(`${CLASS_SUFFIX}requests.storage`) ||
        n.endsWith(`${CLASS_SUFFIX}persistentvolumeclaims`),
    ),
  usage(pvc) {
    const spec = record(pvc.spec);
    const storage = record(record(spec.resources).requests).storage;
    const out: ResourceList = { "count/persistentvolumeclaims": "1", persistentvolumeclaims: "1" };
    const className = typeof spec.storageClassName === "string" ? spec.storageClassName : "";
    if (className !== "") out[`${className}${CLASS_SUFFIX}persistentvolumeclaims`] = "1";
    if (typeof storage === "string" || typeof storage === "number") {
      out["requests.storage"] = String(storage);
      if (className !== "") out[`${className}${CLASS_SUFFIX}requests.storage`] = String(storage);
    }
    return out;
  },
  constraints: () => undefined,
  matchesScope: () => false,
};

/** The evaluator for a namespaced resource. */
export function evaluatorFor(group: string, resource: string): QuotaEvaluator {
  if (group === "" && resource === "pods") return pods;
  if (group === "" && resource === "services") return services;
  if (group === "" && resource === "persistentvolumeclaims") return persistentVolumeClaims;
  return objectCount(group, resource);
}
