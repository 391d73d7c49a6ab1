/**
 * Baseline checks of what a pod shares with its node: host namespaces, hostPath volumes, host
 * ports, hosts named by probes and lifecycle handlers (1.34+), and Windows HostProcess.
 */
import {
  ALLOWED,
  arr,
  type Check,
  type CheckResult,
  containersOf,
  containersPhrase,
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

function hostNamespaces(_meta: Json, spec: Json): CheckResult {
  const used = (["hostNetwork", "hostPID", "hostIPC"] as const).filter((k) => spec[k] === true);
  return used.length > 0 ? refuse("host namespaces", used.map((k) => `${k}=true`).join(", ")) : ALLOWED;
}

function hostPathVolumes(_meta: Json, spec: Json): CheckResult {
  const names = arr(spec.volumes)
    .filter((v) => v.hostPath !== undefined && v.hostPath !== null)
    .map(nameOf);
  if (names.length === 0) return ALLOWED;
  return refuse("hostPath volumes", `${plural("volume", "volumes", names.length)} ${joinQuote(names)}`);
}

function hostPorts(_meta: Json, spec: Json): CheckResult {
  const bad: string[] = [];
  const ports: string[] = [];
  for (const c of containersOf(spec)) {
    const own = arr(c.ports)
      .map((p) => p.hostPort)
      .filter((p): p is number => typeof p === "number" && p !== 0);
    if (own.length === 0) continue;
    bad.push(nameOf(c));
    ports.push(...own.map(String));
  }
  if (bad.length === 0) return ALLOWED;
  const list = sortedSet(ports);
  return refuse(
    "hostPort",
    `${containersPhrase(bad)} ${plural("uses", "use", bad.length)} ${plural("hostPort", "hostPorts", list.length)} ${list.join(", ")}`,
  );
}

/** The hosts a probe or lifecycle handler names (httpGet.host, tcpSocket.host). */
function handlerHosts(handler: unknown): string[] {
  const h = rec(handler);
  return [str(rec(h.httpGet).host), str(rec(h.tcpSocket).host)].filter((x) => x !== "");
}

function hostProbesAndHostLifecycle(_meta: Json, spec: Json): CheckResult {
  const bad = new Set<string>();
  const hosts = new Set<string>();
  for (const c of containersOf(spec)) {
    const lifecycle = rec(c.lifecycle);
    const found = [
      c.livenessProbe,
      c.readinessProbe,
      c.startupProbe,
      lifecycle.postStart,
      lifecycle.preStop,
    ].flatMap(handlerHosts);
    if (found.length === 0) continue;
    bad.add(nameOf(c));
    for (const h of found) hosts.add(h);
  }
  if (bad.size === 0) return ALLOWED;
  const names = sortedSet(bad);
  const list = sortedSet(hosts);
  return refuse(
    "probe or lifecycle host",
    `${containersPhrase(names)} ${plural("uses", "use", names.length)} ${plural("probe or lifecycle host", "probe or lifecycle hosts", list.length)} ${joinQuote(list)}`,
  );
}

const hostProcessSet = (sc: Json | undefined): boolean => rec(sc?.windowsOptions).hostProcess === true;

function windowsHostProcess(_meta: Json, spec: Json): CheckResult {
  const names = containersOf(spec)
    .filter((c) => hostProcessSet(scOf(c)))
    .map(nameOf);
  const pod = hostProcessSet(podSc(spec));
  if (!pod && names.length === 0) return ALLOWED;
  return refuse(
    "hostProcess",
    `${settersPhrase(pod, names)} must not set securityContext.windowsOptions.hostProcess=true`,
  );
}

export const hostNamespacesCheck: Check = {
  id: "hostNamespaces",
  level: "baseline",
  versions: [{ minor: 0, fn: hostNamespaces }],
};
export const hostPathVolumesCheck: Check = {
  id: "hostPathVolumes",
  level: "baseline",
  replacedBy: "restrictedVolumes",
  versions: [{ minor: 0, fn: hostPathVolumes }],
};
export const hostPortsCheck: Check = {
  id: "hostPorts",
  level: "baseline",
  versions: [{ minor: 0, fn: hostPorts }],
};
export const hostProbesCheck: Check = {
  id: "hostProbesAndHostLifecycle",
  level: "baseline",
  versions: [{ minor: 34, fn: hostProbesAndHostLifecycle }],
};
export const windowsHostProcessCheck: Check = {
  id: "windowsHostProcess",
  level: "baseline",
  versions: [{ minor: 0, fn: windowsHostProcess }],
};
