/**
 * Downward API selectors shared by environment variables and downwardAPI volume files: a field
 * reference (converted as the v1 pod field labels are, then checked against the paths the caller
 * allows) and a container resource reference with its divisor.
 */
import { canonicalQuantity } from "@kubesdk/models";
import { type FieldError, invalid, type Json, notSupported, required, stringAt } from "./field-errors.js";
import { qualifiedNameProblems } from "./object-meta.js";

/** The pod field labels v1 converts (spec.host is the old name of spec.nodeName). */
const POD_FIELD_LABELS = new Set([
  "metadata.annotations",
  "metadata.labels",
  "metadata.name",
  "metadata.namespace",
  "metadata.uid",
  "spec.nodeName",
  "spec.restartPolicy",
  "spec.serviceAccountName",
  "spec.schedulerName",
  "status.phase",
  "status.hostIP",
  "status.hostIPs",
  "status.podIP",
  "status.podIPs",
]);

export const ENV_FIELD_PATHS = [
  "metadata.name",
  "metadata.namespace",
  "metadata.uid",
  "spec.nodeName",
  "spec.serviceAccountName",
  "status.hostIP",
  "status.hostIPs",
  "status.podIP",
  "status.podIPs",
];
export const VOLUME_FIELD_PATHS = [
  "metadata.annotations",
  "metadata.labels",
  "metadata.name",
  "metadata.namespace",
  "metadata.uid",
];
const RESOURCE_PATHS = [
  "limits.cpu",
  "limits.ephemeral-storage",
  "limits.memory",
  "requests.cpu",
  "requests.ephemeral-storage",
  "requests.memory",
];
const HUGE_PAGE_PREFIXES = ["limits.hugepages-", "requests.hugepages-"];

/** `path['key']` split into path and key, when it has that shape. */
function splitSubscript(label: string): [string, string] | undefined {
  if (!label.endsWith("']")) return undefined;
  const inner = label.slice(0, -2);
  const at = inner.indexOf("['");
  if (at <= 0) return undefined;
  return [inner.slice(0, at), inner.slice(at + 2)];
}

/** ConvertDownwardAPIFieldLabel: the internal path or why the label does not convert. */
function convertLabel(version: string, label: string): { path: string } | { error: string } {
  if (version !== "v1") return { error: `unsupported pod version: ${version}` };
  const sub = splitSubscript(label);
  if (sub) {
    if (sub[0] === "metadata.annotations" || sub[0] === "metadata.labels") return { path: label };
    return { error: `field label does not support subscript: ${label}` };
  }
  if (label === "spec.host") return { path: "spec.nodeName" };
  return POD_FIELD_LABELS.has(label) ? { path: label } : { error: `field label not supported: ${label}` };
}

/** validateObjectFieldSelector; `paths` are the unsubscripted paths allowed. */
export function fieldSelectorErrors(fs: Json, paths: readonly string[], at: string): FieldError[] {
  // v1 defaulting fills in apiVersion, so only an explicit other version reaches validation.
  const version = stringAt(fs.apiVersion) || "v1";
  const label = stringAt(fs.fieldPath);
  if (label === "") return [required(`${at}.fieldPath`)];
  const converted = convertLabel(version, label);
  if ("error" in converted)
    return [invalid(`${at}.fieldPath`, label, `error converting fieldPath: ${converted.error}`)];
  const sub = splitSubscript(converted.path);
  if (sub) {
    const key = sub[0] === "metadata.annotations" ? sub[1].toLowerCase() : sub[1];
    return qualifiedNameProblems(key).map((m) => invalid(at, key, m));
  }
  if (!paths.includes(converted.path)) return [notSupported(`${at}.fieldPath`, converted.path, paths)];
  return [];
}

const BYTE_DIVISORS = ["1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei"];
const BYTES_MESSAGE = `only divisor's values ${BYTE_DIVISORS.join(", ")} are supported with the`;

/** validateContainerResourceDivisor: the divisors each resource accepts. */
function divisorErrors(resource: string, divisor: unknown, at: string): FieldError[] {
  if (divisor === undefined || divisor === null) return [];
  let text: string;
  try {
    text = canonicalQuantity(String(divisor));
  } catch {
    return [];
  }
  if (text === "0") return [];
  const out: FieldError[] = [];
  const bad = (detail: string) => out.push(invalid(`${at}.divisor`, resource, detail));
  if ((resource === "limits.cpu" || resource === "requests.cpu") && text !== "1m" && text !== "1")
    bad("only divisor's values 1m and 1 are supported with the cpu resource");
  if ((resource === "limits.memory" || resource === "requests.memory") && !BYTE_DIVISORS.includes(text))
    bad(`${BYTES_MESSAGE} memory resource`);
  if (
    (resource === "limits.ephemeral-storage" || resource === "requests.ephemeral-storage") &&
    !BYTE_DIVISORS.includes(text)
  )
    bad(`${BYTES_MESSAGE} local ephemeral storage resource`);
  if (HUGE_PAGE_PREFIXES.some((p) => resource.startsWith(p)) && !BYTE_DIVISORS.includes(text))
    bad(`${BYTES_MESSAGE} hugepages resource`);
  return out;
}

/** validateContainerResourceFieldSelector; volume files must name their container. */
export function resourceSelectorErrors(fs: Json, at: string, volume: boolean): FieldError[] {
  const out: FieldError[] = [];
  const resource = stringAt(fs.resource);
  if (volume && stringAt(fs.containerName) === "") out.push(required(`${at}.containerName`));
  else if (resource === "") out.push(required(`${at}.resource`));
  else if (!RESOURCE_PATHS.includes(resource) && !HUGE_PAGE_PREFIXES.some((p) => resource.startsWith(p)))
    out.push(notSupported(`${at}.resource`, resource, RESOURCE_PATHS));
  out.push(...divisorErrors(resource, fs.divisor, at));
  return out;
}
