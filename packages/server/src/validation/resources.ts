/**
 * Container resource requirements (requests and limits) as upstream validates them: resource
 * names (standard or fully qualified extended resources), non-negative quantities, integers for
 * integer resources, requests no larger than limits (equal for resources that cannot be
 * overcommitted), hugepages only with cpu or memory.
 */
import { type FieldError, forbidden, invalid, isObject, required } from "./field-errors.js";
import { qualifiedNameProblems } from "./object-meta.js";
import { Quantity, quantityValue } from "./quantity-value.js";

const STANDARD_CONTAINER = new Set(["cpu", "memory", "ephemeral-storage"]);
const STANDARD = new Set([
  ...STANDARD_CONTAINER,
  "requests.cpu",
  "requests.memory",
  "requests.ephemeral-storage",
  "limits.cpu",
  "limits.memory",
  "limits.ephemeral-storage",
  "pods",
  "resourcequotas",
  "services",
  "replicationcontrollers",
  "secrets",
  "configmaps",
  "persistentvolumeclaims",
  "storage",
  "requests.storage",
  "services.nodeports",
  "services.loadbalancers",
]);
/** Resources a ResourceQuota may limit (IsStandardQuotaResourceName): the standard ones but storage. */
export const isStandardQuotaResource = (name: string): boolean =>
  (STANDARD.has(name) && name !== "storage") ||
  name.startsWith("hugepages-") ||
  name.startsWith("requests.hugepages-");

const INTEGER = new Set([
  "pods",
  "resourcequotas",
  "services",
  "replicationcontrollers",
  "secrets",
  "configmaps",
  "persistentvolumeclaims",
  "services.nodeports",
  "services.loadbalancers",
]);

const isHugePages = (name: string) => name.startsWith("hugepages-");
const isQuotaHugePages = (name: string) =>
  name.startsWith("hugepages-") || name.startsWith("requests.hugepages-");
const isNative = (name: string) => !name.includes("/") || name.includes("kubernetes.io/");
export const isHugePagesResource = isHugePages;
export const overcommitAllowed = (name: string) => isNative(name) && !isHugePages(name);
const isExtended = (name: string) =>
  !isNative(name) && !name.startsWith("requests.") && qualifiedNameProblems(`requests.${name}`).length === 0;
const isInteger = (name: string) => INTEGER.has(name) || isExtended(name);

/** validateResourceName: a qualified name, standard unless it has a domain. */
export function resourceNameErrors(name: string, field: string): FieldError[] {
  const problems = qualifiedNameProblems(name);
  if (problems.length > 0) return problems.map((m) => invalid(field, name, m));
  if (!name.includes("/") && !STANDARD.has(name) && !isQuotaHugePages(name))
    return [invalid(field, name, "must be a standard resource type or fully qualified")];
  return [];
}

/** ValidateContainerResourceName. */
export function containerResourceNameErrors(name: string, field: string): FieldError[] {
  const out = resourceNameErrors(name, field);
  if (!name.includes("/")) {
    if (!STANDARD_CONTAINER.has(name) && !isHugePages(name))
      out.push(invalid(field, name, "must be a standard resource for containers"));
  } else if (!isNative(name) && !isExtended(name))
    out.push(invalid(field, name, "doesn't follow extended resource name standard"));
  return out;
}

const ZERO = new Quantity(0n, 1n);

/** ValidateResourceQuantityValue: not negative, whole for integer resources. */
export function quantityValueErrors(name: string, text: string, field: string): FieldError[] {
  const q = quantityValue(text);
  if (q === undefined) return [];
  const out: FieldError[] = [];
  if (q.compare(ZERO) < 0) out.push(invalid(field, text, "must be greater than or equal to 0"));
  if (isInteger(name) && q.num % q.den !== 0n) out.push(invalid(field, text, "must be an integer"));
  return out;
}

const quantities = (v: unknown): [string, string][] =>
  isObject(v)
    ? Object.entries(v).map(([k, x]) => [k, typeof x === "number" ? String(x) : String(x ?? "")])
    : [];

type NameErrors = (name: string, field: string) => FieldError[];

/** validateResourceRequirements for a container's `resources`. */
export function containerResourceErrors(resources: unknown, field: string): FieldError[] {
  return requirementsErrors(resources, field, containerResourceNameErrors);
}

/** Requests and limits, their names checked by `nameErrors` (a container's or a pod's). */
export function requirementsErrors(resources: unknown, field: string, nameErrors: NameErrors): FieldError[] {
  const r = isObject(resources) ? resources : {};
  const out: FieldError[] = [];
  const limits = new Map(quantities(r.limits));
  let cpuOrMemory = false;
  let hugePages = false;
  for (const [name, text] of limits) {
    const at = `${field}.limits[${name}]`;
    out.push(...nameErrors(name, at), ...quantityValueErrors(name, text, at));
    if (isHugePages(name)) hugePages = true;
    if (name === "cpu" || name === "memory") cpuOrMemory = true;
  }
  for (const [name, text] of quantities(r.requests)) {
    const at = `${field}.requests[${name}]`;
    out.push(...nameErrors(name, at), ...quantityValueErrors(name, text, at));
    const limit = limits.get(name);
    const q = quantityValue(text);
    const l = limit === undefined ? undefined : quantityValue(limit);
    if (limit !== undefined && q && l) {
      if (q.compare(l) !== 0 && !overcommitAllowed(name))
        out.push(invalid(`${field}.requests`, text, `must be equal to ${name} limit of ${limit}`));
      else if (q.compare(l) > 0)
        out.push(
          invalid(`${field}.requests`, text, `must be less than or equal to ${name} limit of ${limit}`),
        );
    } else if (limit === undefined && !overcommitAllowed(name))
      out.push(required(`${field}.limits`, "Limit must be set for non overcommitable resources"));
    if (isHugePages(name)) hugePages = true;
    if (name === "cpu" || name === "memory") cpuOrMemory = true;
  }
  if (hugePages && !cpuOrMemory) out.push(forbidden(field, "HugePages require cpu or memory"));
  return out;
}
