/**
 * `spec.os`: the name is linux or windows; a Linux pod may not carry Windows options, and a
 * Windows pod may not set the Linux-only fields of the pod and its containers.
 */
import {
  type FieldError,
  forbidden,
  isObject,
  isSet,
  type Json,
  listAt,
  notSupported,
  objectAt,
  required,
  stringAt,
} from "./field-errors.js";
import { podContainers } from "./pod-security-rules.js";

const OS_NAMES = ["linux", "windows"];
const NOT_WINDOWS = "cannot be set for a windows pod";

/** Pod security context fields a Windows pod may not set (reported under securityContext). */
const WINDOWS_POD_CONTEXT = [
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
const WINDOWS_CONTAINER_CONTEXT = [
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
  const message = "windows options cannot be set for a linux pod";
  const out: FieldError[] = [];
  if (isSet(objectAt(spec.securityContext).windowsOptions))
    out.push(forbidden(`${at}.securityContext.windowsOptions`, message));
  for (const [c, path] of podContainers(spec, at))
    if (isSet(objectAt(c.securityContext).windowsOptions))
      out.push(forbidden(`${path}.securityContext.windowsOptions`, message));
  return out;
}

/** The pod's security context first (kube-apiserver 1.37's order), then the host namespaces. */
function windowsErrors(spec: Json, at: string): FieldError[] {
  const out: FieldError[] = [];
  const sc = objectAt(spec.securityContext);
  for (const k of WINDOWS_POD_CONTEXT) {
    const set = k === "sysctls" ? listAt(sc.sysctls).length > 0 : isSet(sc[k]);
    if (set) out.push(forbidden(`${at}.securityContext.${k}`, NOT_WINDOWS));
  }
  if (isSet(spec.hostUsers)) out.push(forbidden(`${at}.hostUsers`, NOT_WINDOWS));
  if (spec.hostPID === true) out.push(forbidden(`${at}.hostPID`, NOT_WINDOWS));
  if (spec.hostIPC === true) out.push(forbidden(`${at}.hostIPC`, NOT_WINDOWS));
  if (isSet(spec.shareProcessNamespace)) out.push(forbidden(`${at}.shareProcessNamespace`, NOT_WINDOWS));
  for (const [c, path] of podContainers(spec, at)) {
    const csc = objectAt(c.securityContext);
    for (const k of WINDOWS_CONTAINER_CONTEXT)
      if (isSet(csc[k])) out.push(forbidden(`${path}.securityContext.${k}`, NOT_WINDOWS));
  }
  return out;
}

/** validateOS and the rules of the named OS. */
export function podOsErrors(spec: Json, at: string): FieldError[] {
  if (!isObject(spec.os)) return [];
  const name = stringAt(spec.os.name);
  if (name === "") return [required(`${at}.os.name`)];
  if (!OS_NAMES.includes(name)) return [notSupported(`${at}.os`, name, OS_NAMES)];
  return name === "linux" ? linuxErrors(spec, at) : windowsErrors(spec, at);
}
