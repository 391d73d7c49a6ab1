/**
 * The pod's `os` (validateOS, validateLinux, validateWindows upstream): a known name, and then
 * the security settings the other operating system's containers have no use for are refused.
 */
import {
  type FieldError,
  forbidden,
  isSet,
  type Json,
  notSupported,
  obj,
  required,
  str,
} from "./field-errors.js";
import { podContainers } from "./pod-security-rules.js";

const OS_NAMES = ["linux", "windows"];
const NOT_FOR_WINDOWS = "cannot be set for a windows pod";
const NOT_FOR_LINUX = "windows options cannot be set for a linux pod";

/** Pod security context fields a Windows pod may not set, in upstream's order. */
const POD_LINUX_ONLY = [
  "appArmorProfile",
  "seLinuxOptions",
  "seccompProfile",
  "fsGroup",
  "fsGroupChangePolicy",
  "sysctls",
  "runAsUser",
  "runAsGroup",
  "supplementalGroups",
  "supplementalGroupsPolicy",
  "seLinuxChangePolicy",
];
/** Container security context fields a Windows pod may not set, in upstream's order. */
const CONTAINER_LINUX_ONLY = [
  "appArmorProfile",
  "seLinuxOptions",
  "seccompProfile",
  "capabilities",
  "readOnlyRootFilesystem",
  "privileged",
  "allowPrivilegeEscalation",
  "procMount",
  "runAsUser",
  "runAsGroup",
];

function linuxErrors(spec: Json, at: string): FieldError[] {
  const out: FieldError[] = [];
  if (isSet(obj(spec.securityContext).windowsOptions))
    out.push(forbidden(`${at}.securityContext.windowsOptions`, NOT_FOR_LINUX));
  for (const [c, path] of podContainers(spec, at))
    if (isSet(obj(c.securityContext).windowsOptions))
      out.push(forbidden(`${path}.securityContext.windowsOptions`, NOT_FOR_LINUX));
  return out;
}

/** Go reads an empty list as unset for `sysctls` (len > 0) but as set for `supplementalGroups` (!= nil). */
function podFieldSet(sc: Json, k: string): boolean {
  return k === "sysctls" ? Array.isArray(sc[k]) && sc[k].length > 0 : isSet(sc[k]);
}

function windowsErrors(spec: Json, at: string): FieldError[] {
  const out: FieldError[] = [];
  if (isSet(spec.securityContext)) {
    const sc = obj(spec.securityContext);
    for (const k of POD_LINUX_ONLY)
      if (podFieldSet(sc, k)) out.push(forbidden(`${at}.securityContext.${k}`, NOT_FOR_WINDOWS));
  }
  if (isSet(spec.hostUsers)) out.push(forbidden(`${at}.hostUsers`, NOT_FOR_WINDOWS));
  for (const k of ["hostPID", "hostIPC"])
    if (spec[k] === true) out.push(forbidden(`${at}.${k}`, NOT_FOR_WINDOWS));
  if (isSet(spec.shareProcessNamespace)) out.push(forbidden(`${at}.shareProcessNamespace`, NOT_FOR_WINDOWS));
  for (const [c, path] of podContainers(spec, at)) {
    if (!isSet(c.securityContext)) continue;
    const sc = obj(c.securityContext);
    for (const k of CONTAINER_LINUX_ONLY)
      if (isSet(sc[k])) out.push(forbidden(`${path}.securityContext.${k}`, NOT_FOR_WINDOWS));
  }
  return out;
}

/** validateOS and the rules of the named OS, for the pod spec at `at`. */
export function podOsErrors(spec: Json, at: string): FieldError[] {
  if (!isSet(spec.os)) return [];
  const name = str(obj(spec.os).name);
  if (name === "") return [required(`${at}.os.name`)];
  if (!OS_NAMES.includes(name)) return [notSupported(`${at}.os`, name, OS_NAMES)];
  return name === "linux" ? linuxErrors(spec, at) : windowsErrors(spec, at);
}
