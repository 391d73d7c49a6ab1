/**
 * Checks of the confinement profiles: seccomp (baseline: not Unconfined; restricted: RuntimeDefault
 * or Localhost set for every container), AppArmor (not Unconfined, in the field or the deprecated
 * annotation) and SELinux options (allowed types only, no user or role).
 */
import {
  ALLOWED,
  type Check,
  type CheckResult,
  containersOf,
  containersPhrase,
  isWindowsPod,
  type Json,
  joinQuote,
  nameOf,
  plural,
  podSc,
  rec,
  refuse,
  scOf,
  settersPhrase,
  sortedSet,
  str,
} from "./model.js";

const goQuote = (s: string): string => JSON.stringify(s);

const SECCOMP_POD = "seccomp.security.alpha.kubernetes.io/pod";
const SECCOMP_CONTAINER = "container.seccomp.security.alpha.kubernetes.io/";
const validSeccompAnnotation = (v: string) =>
  v === "runtime/default" || v === "docker/default" || v.startsWith("localhost/");

/** Before 1.19 seccomp was set by annotations only. */
function seccompAnnotations(meta: Json, spec: Json): CheckResult {
  const annotations = rec(meta.annotations);
  const keys = [SECCOMP_POD, ...containersOf(spec).map((c) => SECCOMP_CONTAINER + nameOf(c))];
  const bad = keys
    .filter((k) => typeof annotations[k] === "string" && !validSeccompAnnotation(annotations[k] as string))
    .map((k) => `${k}=${goQuote(annotations[k] as string)}`);
  if (bad.length === 0) return ALLOWED;
  const list = sortedSet(bad);
  return refuse(
    "seccompProfile",
    `forbidden ${plural("annotation", "annotations", list.length)} ${list.join(", ")}`,
  );
}

const profileOf = (sc: Json | undefined): Json | undefined =>
  sc && sc.seccompProfile !== undefined && sc.seccompProfile !== null ? rec(sc.seccompProfile) : undefined;
const validSeccomp = (t: string) => t === "RuntimeDefault" || t === "Localhost";

/** The seccomp fields; `required` (restricted) also refuses containers with no profile at all. */
function seccompFields(required: boolean, windowsExempt: boolean) {
  return (_meta: Json, spec: Json): CheckResult => {
    if (windowsExempt && isWindowsPod(spec)) return ALLOWED;
    const values: string[] = [];
    const podProfile = profileOf(podSc(spec));
    const podBad = podProfile !== undefined && !validSeccomp(str(podProfile.type));
    if (podBad) values.push(str(podProfile?.type));
    const podSet = podProfile !== undefined && !podBad;
    const explicit: string[] = [];
    const implicit: string[] = [];
    for (const c of containersOf(spec)) {
      const own = profileOf(scOf(c));
      if (own) {
        if (!validSeccomp(str(own.type))) {
          explicit.push(nameOf(c));
          values.push(str(own.type));
        }
      } else if (!podSet) implicit.push(nameOf(c));
    }
    if (podBad || explicit.length > 0)
      return refuse(
        "seccompProfile",
        `${settersPhrase(podBad, explicit)} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(values))}`,
      );
    if (required && implicit.length > 0)
      return refuse(
        "seccompProfile",
        `pod or ${containersPhrase(implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
      );
    return ALLOWED;
  };
}

const APPARMOR_PREFIX = "container.apparmor.security.beta.kubernetes.io/";
const allowedAppArmorType = (t: string) => t === "RuntimeDefault" || t === "Localhost";
const allowedAppArmorAnnotation = (v: string) =>
  v === "" || v === "runtime/default" || v.startsWith("localhost/");
const appArmorOf = (sc: Json | undefined): Json | undefined =>
  sc && sc.appArmorProfile !== undefined && sc.appArmorProfile !== null ? rec(sc.appArmorProfile) : undefined;

function appArmorProfile(meta: Json, spec: Json): CheckResult {
  const values: string[] = [];
  const podProfile = appArmorOf(podSc(spec));
  const podBad = podProfile !== undefined && !allowedAppArmorType(str(podProfile.type));
  if (podBad) values.push(str(podProfile?.type));
  const names: string[] = [];
  for (const c of containersOf(spec)) {
    const own = appArmorOf(scOf(c));
    if (own && !allowedAppArmorType(str(own.type))) {
      names.push(nameOf(c));
      values.push(str(own.type));
    }
  }
  const setters = podBad || names.length > 0 ? [settersPhrase(podBad, names)] : [];
  const list = sortedSet(values);
  const annotations = Object.entries(rec(meta.annotations))
    .filter(([k, v]) => k.startsWith(APPARMOR_PREFIX) && !allowedAppArmorAnnotation(str(v)))
    .map(([k, v]) => `${k}=${goQuote(str(v))}`)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (annotations.length > 0) {
    list.push(...annotations);
    setters.push(plural("annotation", "annotations", annotations.length));
  }
  if (setters.length === 0) return ALLOWED;
  return refuse(
    plural("forbidden AppArmor profile", "forbidden AppArmor profiles", list.length),
    `${setters.join(" and ")} must not set AppArmor profile type to ${joinQuote(list)}`,
  );
}

const SELINUX_TYPES = ["", "container_t", "container_init_t", "container_kvm_t"];

function seLinuxOptions(types: ReadonlySet<string>) {
  return (_meta: Json, spec: Json): CheckResult => {
    const badTypes: string[] = [];
    let user = false;
    let role = false;
    const bad = (sc: Json | undefined): boolean => {
      if (!sc || sc.seLinuxOptions === undefined || sc.seLinuxOptions === null) return false;
      const o = rec(sc.seLinuxOptions);
      let found = false;
      if (!types.has(str(o.type))) {
        badTypes.push(str(o.type));
        found = true;
      }
      if (str(o.user) !== "") user = found = true;
      if (str(o.role) !== "") role = found = true;
      return found;
    };
    const pod = bad(podSc(spec));
    const names = containersOf(spec)
      .filter((c) => bad(scOf(c)))
      .map(nameOf);
    if (!pod && names.length === 0) return ALLOWED;
    const data: string[] = [];
    const list = sortedSet(badTypes);
    if (list.length > 0) data.push(`${plural("type", "types", list.length)} ${joinQuote(list)}`);
    if (user) data.push("user may not be set");
    if (role) data.push("role may not be set");
    return refuse(
      "seLinuxOptions",
      `${settersPhrase(pod, names)} set forbidden securityContext.seLinuxOptions: ${data.join("; ")}`,
    );
  };
}

export const appArmorProfileCheck: Check = {
  id: "appArmorProfile",
  level: "baseline",
  versions: [{ minor: 0, fn: appArmorProfile }],
};
export const seLinuxOptionsCheck: Check = {
  id: "seLinuxOptions",
  level: "baseline",
  versions: [
    { minor: 0, fn: seLinuxOptions(new Set(SELINUX_TYPES)) },
    { minor: 31, fn: seLinuxOptions(new Set([...SELINUX_TYPES, "container_engine_t"])) },
  ],
};
export const seccompProfileBaselineCheck: Check = {
  id: "seccompProfile_baseline",
  level: "baseline",
  replacedBy: "seccompProfile_restricted",
  versions: [
    { minor: 0, fn: seccompAnnotations },
    { minor: 19, fn: seccompFields(false, false) },
  ],
};
export const seccompProfileRestrictedCheck: Check = {
  id: "seccompProfile_restricted",
  level: "restricted",
  versions: [
    { minor: 19, fn: seccompFields(true, false) },
    { minor: 25, fn: seccompFields(true, true) },
  ],
};
