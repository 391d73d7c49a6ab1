/**
 * Security contexts (validatePodSpecSecurityContext and ValidateSecurityContext upstream): user and
 * group ids in range, the fsGroup change policy, seccomp and AppArmor profiles, sysctls, the
 * privilege-escalation combinations a container may not ask for, privileged containers (refused,
 * as kube-apiserver refuses them under its default --allow-privileged=false), its proc mount.
 */
import {
  type FieldError,
  invalid,
  isSet,
  type Json,
  listAt,
  notSupported,
  obj,
  required,
  str,
  tooLong,
} from "./field-errors.js";
import { shownContainerContext, shownProfile } from "./security-context-shown.js";
import { sysctlErrors } from "./sysctls.js";

const ID_MAX = 2147483647;
const ID_RANGE = `must be between 0 and ${ID_MAX}, inclusive`;

/** IsValidUserID / IsValidGroupID on a set integer field. */
function idErrors(value: unknown, field: string): FieldError[] {
  if (typeof value !== "number") return [];
  return value < 0 || value > ID_MAX ? [invalid(field, value, ID_RANGE)] : [];
}

const SECCOMP_TYPES = ["Localhost", "RuntimeDefault", "Unconfined"];

/** validateSeccompProfileField. */
function seccompErrors(profile: unknown, at: string): FieldError[] {
  if (!isSet(profile)) return [];
  const p = obj(profile);
  const type = str(p.type);
  const out: FieldError[] = [];
  if (type === "") out.push(required(`${at}.type`, "type is required when seccompProfile is set"));
  else if (!SECCOMP_TYPES.includes(type)) out.push(notSupported(`${at}.type`, type, SECCOMP_TYPES));
  if (type === "Localhost") {
    if (str(p.localhostProfile) === "")
      out.push(required(`${at}.localhostProfile`, "must be set when seccomp type is Localhost"));
  } else if (isSet(p.localhostProfile))
    out.push(
      invalid(`${at}.localhostProfile`, shownProfile(p), "can only be set when seccomp type is Localhost"),
    );
  return out;
}

const APPARMOR_TYPES = ["Localhost", "RuntimeDefault", "Unconfined"];
const APPARMOR_PROFILE_MAX = 4095;

function appArmorLocalhostErrors(profile: unknown, at: string): FieldError[] {
  if (!isSet(profile)) return [required(at, "must be set when AppArmor type is Localhost")];
  const value = str(profile);
  const out: FieldError[] = [];
  if (value.trim() !== value) out.push(invalid(at, value, "must not be padded with whitespace"));
  else if (value === "") out.push(required(at, "must be set when AppArmor type is Localhost"));
  if (value.length > APPARMOR_PROFILE_MAX) out.push(tooLong(at, APPARMOR_PROFILE_MAX));
  return out;
}

/** ValidateAppArmorProfileField. */
function appArmorErrors(profile: unknown, at: string): FieldError[] {
  if (!isSet(profile)) return [];
  const p = obj(profile);
  const type = str(p.type);
  if (type === "Localhost") return appArmorLocalhostErrors(p.localhostProfile, `${at}.localhostProfile`);
  if (type === "") return [required(`${at}.type`, "type is required when appArmorProfile is set")];
  if (!APPARMOR_TYPES.includes(type)) return [notSupported(`${at}.type`, type, APPARMOR_TYPES)];
  return isSet(p.localhostProfile)
    ? [
        invalid(
          `${at}.localhostProfile`,
          str(p.localhostProfile),
          "can only be set when AppArmor type is Localhost",
        ),
      ]
    : [];
}

const FS_GROUP_POLICIES = ["Always", "OnRootMismatch"];

/** validatePodSpecSecurityContext (the checked subset), for `spec.securityContext`. */
export function podSecurityContextErrors(spec: Json, at: string): FieldError[] {
  if (!isSet(spec.securityContext)) return [];
  const sc = obj(spec.securityContext);
  const out: FieldError[] = [];
  out.push(...idErrors(sc.fsGroup, `${at}.fsGroup`));
  out.push(...idErrors(sc.runAsUser, `${at}.runAsUser`));
  out.push(...idErrors(sc.runAsGroup, `${at}.runAsGroup`));
  out.push(...listAt(sc.supplementalGroups).flatMap((g, i) => idErrors(g, `${at}.supplementalGroups[${i}]`)));
  out.push(...sysctlErrors(sc.sysctls, `${at}.sysctls`));
  const policy = sc.fsGroupChangePolicy;
  if (isSet(policy) && !FS_GROUP_POLICIES.includes(str(policy)))
    out.push(notSupported(`${at}.fsGroupChangePolicy`, str(policy), FS_GROUP_POLICIES));
  out.push(...seccompErrors(sc.seccompProfile, `${at}.seccompProfile`));
  out.push(...appArmorErrors(sc.appArmorProfile, `${at}.appArmorProfile`));
  return out;
}

const PROC_MOUNTS = ["Default", "Unmasked"];

/** The combinations allowPrivilegeEscalation=false rules out. */
function escalationErrors(sc: Json, at: string): FieldError[] {
  if (sc.allowPrivilegeEscalation !== false) return [];
  const out: FieldError[] = [];
  if (sc.privileged === true)
    out.push(
      invalid(
        at,
        shownContainerContext(sc),
        "cannot set `allowPrivilegeEscalation` to false and `privileged` to true",
      ),
    );
  for (const cap of listAt(obj(sc.capabilities).add))
    if (cap === "CAP_SYS_ADMIN")
      out.push(
        invalid(
          at,
          shownContainerContext(sc),
          "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN",
        ),
      );
  return out;
}

/** ValidateSecurityContext (the checked subset), for a container's `securityContext`. */
export function containerSecurityContextErrors(context: unknown, at: string, hostUsers = true): FieldError[] {
  if (!isSet(context)) return [];
  const sc = obj(context);
  const out: FieldError[] = [];
  // Privileged containers are allowed, as on a kube-apiserver run with --allow-privileged=true
  // (kubeadm's and kind's setting; the real test harness runs it so).
  out.push(...idErrors(sc.runAsUser, `${at}.runAsUser`));
  out.push(...idErrors(sc.runAsGroup, `${at}.runAsGroup`));
  if (isSet(sc.procMount) && !PROC_MOUNTS.includes(str(sc.procMount)))
    out.push(notSupported(`${at}.procMount`, str(sc.procMount), PROC_MOUNTS));
  // An unmasked /proc is safe only inside the pod's own user namespace.
  if (hostUsers && sc.procMount === "Unmasked")
    out.push(invalid(`${at}.procMount`, "Unmasked", "`hostUsers` must be false to use `Unmasked`"));
  out.push(...seccompErrors(sc.seccompProfile, `${at}.seccompProfile`));
  out.push(...escalationErrors(sc, at));
  out.push(...appArmorErrors(sc.appArmorProfile, `${at}.appArmorProfile`));
  return out;
}
