/**
 * The pod-wide security rules beside the security contexts' own fields (security-context.ts):
 * supplemental groups and SELinux change policies, Windows options and HostProcess containers,
 * namespaced sysctls of a pod that shares the host's namespaces, user namespaces (`hostUsers:
 * false`) and what they rule out, and the Unmasked proc mount that needs them.
 */
import {
  type FieldError,
  forbidden,
  invalid,
  isSet,
  type Json,
  listAt,
  notSupported,
  obj,
  str,
} from "./field-errors.js";
import { hostSysctlErrors } from "./sysctls.js";
import { windowsOptionsErrors } from "./windows-options.js";

/** Every container of a pod with its path, in upstream's VisitContainersWithPath order. */
export function podContainers(spec: Json, at: string): [Json, string][] {
  return ["initContainers", "containers", "ephemeralContainers"].flatMap((list) =>
    listAt(spec[list]).map((c, i): [Json, string] => [obj(c), `${at}.${list}[${i}]`]),
  );
}

const SUPPLEMENTAL_GROUPS_POLICIES = ["Merge", "Strict"];
/** SELinuxMount is on in 1.37: every policy is allowed, not only Recursive. */
const SELINUX_CHANGE_POLICIES = ["MountOption", "Recursive"];

function oneOf(value: unknown, field: string, supported: readonly string[]): FieldError[] {
  if (!isSet(value) || supported.includes(str(value))) return [];
  return [notSupported(field, str(value), supported)];
}

/** The rest of validatePodSpecSecurityContext, for `spec.securityContext`. */
function podContextErrors(spec: Json, at: string): FieldError[] {
  if (!isSet(spec.securityContext)) return [];
  const sc = obj(spec.securityContext);
  return [
    ...hostSysctlErrors(spec, sc.sysctls, `${at}.sysctls`),
    ...windowsOptionsErrors(sc.windowsOptions, `${at}.windowsOptions`),
    ...oneOf(sc.supplementalGroupsPolicy, `${at}.supplementalGroupsPolicy`, SUPPLEMENTAL_GROUPS_POLICIES),
    ...oneOf(sc.seLinuxChangePolicy, `${at}.seLinuxChangePolicy`, SELINUX_CHANGE_POLICIES),
  ];
}

/**
 * The rest of ValidateSecurityContext for one container: Windows options, and for an ephemeral
 * container an Unmasked proc mount (the other containers' is checked with their own fields).
 */
function containerContextErrors(c: Json, hostUsers: boolean, at: string): FieldError[] {
  if (!isSet(c.securityContext)) return [];
  const sc = obj(c.securityContext);
  const out: FieldError[] = [];
  if (hostUsers && sc.procMount === "Unmasked" && at.includes(".ephemeralContainers["))
    out.push(invalid(`${at}.procMount`, "Unmasked", "`hostUsers` must be false to use `Unmasked`"));
  out.push(...windowsOptionsErrors(sc.windowsOptions, `${at}.windowsOptions`));
  return out;
}

const hostProcessOf = (context: unknown): unknown => obj(obj(context).windowsOptions).hostProcess;

/** validateWindowsHostProcessPod: all containers or none HostProcess, and then on the host network. */
function hostProcessErrors(spec: Json, at: string): FieldError[] {
  const podValue = hostProcessOf(spec.securityContext);
  const out: FieldError[] = [];
  const containers = podContainers(spec, at);
  let count = 0;
  for (const [c, path] of containers) {
    const value = hostProcessOf(c.securityContext);
    if (typeof podValue === "boolean" && typeof value === "boolean" && podValue !== value)
      out.push(
        invalid(
          `${path}.securityContext.windowsOptions.hostProcess`,
          value,
          `pod hostProcess value must be identical if both are specified, was ${podValue}`,
        ),
      );
    if (value === true || (!isSet(value) && podValue === true)) count++;
  }
  if (count === 0) return out;
  if (count !== containers.length)
    out.push(
      invalid(
        at,
        "",
        "If pod contains any hostProcess containers then all containers must be HostProcess containers",
      ),
    );
  if (spec.hostNetwork !== true)
    out.push(
      invalid(
        `${at}.hostNetwork`,
        false,
        "hostNetwork must be true if pod contains any hostProcess containers",
      ),
    );
  return out;
}

const WITHOUT_HOST_USERS = "when `hostUsers` is false";

/**
 * validateHostUsers: a pod in its own user namespace shares no other namespace with the host
 * (UserNamespacesHostNetworkSupport is off in 1.37) and has no raw block devices. Upstream spells
 * two of the fields with a capital letter.
 */
function hostUsersErrors(spec: Json, at: string): FieldError[] {
  if (spec.hostUsers !== false) return [];
  const out: FieldError[] = [];
  if (spec.hostNetwork === true) out.push(forbidden(`${at}.hostNetwork`, WITHOUT_HOST_USERS));
  if (spec.hostPID === true) out.push(forbidden(`${at}.HostPID`, WITHOUT_HOST_USERS));
  if (spec.hostIPC === true) out.push(forbidden(`${at}.HostIPC`, WITHOUT_HOST_USERS));
  for (const [c, path] of podContainers(spec, at))
    if (listAt(c.volumeDevices).length > 0) out.push(forbidden(`${path}.volumeDevices`, WITHOUT_HOST_USERS));
  return out;
}

/** The pod-wide security rules of ValidatePodSpec, fields reported under `at` (the spec's path). */
export function podSecurityRuleErrors(spec: Json, at: string): FieldError[] {
  const hostUsers = spec.hostUsers !== false;
  return [
    ...podContextErrors(spec, `${at}.securityContext`),
    ...podContainers(spec, at).flatMap(([c, path]) =>
      containerContextErrors(c, hostUsers, `${path}.securityContext`),
    ),
    ...hostProcessErrors(spec, at),
    ...hostUsersErrors(spec, at),
  ];
}
