/** Restricted checks of the user a pod runs as: runAsNonRoot must hold, runAsUser may not be 0. */
import {
  ALLOWED,
  type Check,
  type CheckResult,
  containersOf,
  containersPhrase,
  type Json,
  nameOf,
  podSc,
  refuse,
  scOf,
  settersPhrase,
} from "./model.js";

/** From 1.35 a pod in a user namespace (`hostUsers: false`) runs as root only inside it. */
const inUserNamespace = (spec: Json): boolean => spec.hostUsers === false;

function runAsNonRoot(relaxForUserNamespace: boolean) {
  return (_meta: Json, spec: Json): CheckResult =>
    relaxForUserNamespace && inUserNamespace(spec) ? ALLOWED : runAsNonRootOf(spec);
}

function runAsNonRootOf(spec: Json): CheckResult {
  const podValue = podSc(spec)?.runAsNonRoot;
  const podBad = podValue === false;
  const podTrue = podValue === true;
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of containersOf(spec)) {
    const own = scOf(c)?.runAsNonRoot;
    if (typeof own === "boolean") {
      if (!own) explicit.push(nameOf(c));
    } else if (!podTrue) implicit.push(nameOf(c));
  }
  if (podBad || explicit.length > 0)
    return refuse(
      "runAsNonRoot != true",
      `${settersPhrase(podBad, explicit)} must not set securityContext.runAsNonRoot=false`,
    );
  if (implicit.length > 0)
    return refuse(
      "runAsNonRoot != true",
      `pod or ${containersPhrase(implicit)} must set securityContext.runAsNonRoot=true`,
    );
  return ALLOWED;
}

function runAsUser(relaxForUserNamespace: boolean) {
  return (_meta: Json, spec: Json): CheckResult =>
    relaxForUserNamespace && inUserNamespace(spec) ? ALLOWED : runAsUserOf(spec);
}

function runAsUserOf(spec: Json): CheckResult {
  const pod = podSc(spec)?.runAsUser === 0;
  const names = containersOf(spec)
    .filter((c) => scOf(c)?.runAsUser === 0)
    .map(nameOf);
  if (!pod && names.length === 0) return ALLOWED;
  return refuse("runAsUser=0", `${settersPhrase(pod, names)} must not set runAsUser=0`);
}

export const runAsNonRootCheck: Check = {
  id: "runAsNonRoot",
  level: "restricted",
  versions: [
    { minor: 0, fn: runAsNonRoot(false) },
    { minor: 35, fn: runAsNonRoot(true) },
  ],
};
export const runAsUserCheck: Check = {
  id: "runAsUser",
  level: "restricted",
  versions: [
    { minor: 23, fn: runAsUser(false) },
    { minor: 35, fn: runAsUser(true) },
  ],
};
