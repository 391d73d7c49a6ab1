/**
 * The warnings kube-apiserver 1.37 answers for a pod spec it accepts (upstream's pod
 * warningsForPodSpecAndMeta, the part implemented here): deprecated node labels in node
 * selectors, node affinity and topology spread keys; deprecated annotations and volume plugins;
 * duplicate or empty image pull secrets; seccomp annotations without the field; fractional byte
 * quantities; environment variables that hide an earlier one. `at` prefixes the paths (templates).
 */

import { canonicalQuantity } from "@kubesdk/models";
import { isObject, type Json, listAt, objectAt, stringAt } from "./field-errors.js";
import { type Quantity, quantityValue } from "./quantity-value.js";

const NEW_TOPOLOGY = "deprecated since v1.17; use";
/** Deprecated node labels and what to use instead (upstream's node label deprecation table). */
const DEPRECATED_NODE_LABELS: Readonly<Record<string, string>> = {
  "beta.kubernetes.io/arch": 'deprecated since v1.14; use "kubernetes.io/arch" instead',
  "beta.kubernetes.io/os": 'deprecated since v1.14; use "kubernetes.io/os" instead',
  "failure-domain.beta.kubernetes.io/region": `${NEW_TOPOLOGY} "topology.kubernetes.io/region" instead`,
  "failure-domain.beta.kubernetes.io/zone": `${NEW_TOPOLOGY} "topology.kubernetes.io/zone" instead`,
  "beta.kubernetes.io/instance-type": `${NEW_TOPOLOGY} "node.kubernetes.io/instance-type" instead`,
};

const DEPRECATED_ANNOTATIONS: readonly (readonly [string, string])[] = [
  [
    "scheduler.alpha.kubernetes.io/critical-pod",
    'non-functional in v1.16+; use the "priorityClassName" field instead',
  ],
  ["security.alpha.kubernetes.io/sysctls", 'non-functional in v1.11+; use the "sysctls" field instead'],
  [
    "security.alpha.kubernetes.io/unsafe-sysctls",
    'non-functional in v1.11+; use the "sysctls" field instead',
  ],
];

const DEPRECATED_VOLUMES: readonly (readonly [string, string])[] = [
  ["photonPersistentDisk", "deprecated in v1.11, non-functional in v1.16+"],
  ["gitRepo", "deprecated in v1.11, and disabled by default in v1.33+"],
  ["scaleIO", "deprecated in v1.16, non-functional in v1.22+"],
  ["flocker", "deprecated in v1.22, non-functional in v1.25+"],
  ["storageOS", "deprecated in v1.22, non-functional in v1.25+"],
  ["quobyte", "deprecated in v1.22, non-functional in v1.25+"],
  ["glusterfs", "deprecated in v1.25, non-functional in v1.26+"],
  ["cephfs", "deprecated in v1.28, non-functional in v1.31+"],
  ["rbd", "deprecated in v1.28, non-functional in v1.31+"],
];

const SECCOMP_POD = "seccomp.security.alpha.kubernetes.io/pod";
const SECCOMP_CONTAINER = "container.seccomp.security.alpha.kubernetes.io/";
const SECCOMP_MSG = 'non-functional in v1.27+; use the "seccompProfile" field instead';

const path = (at: string, rest: string) => (at ? `${at}.${rest}` : rest);

function nodeLabelWarnings(spec: Json, at: string): string[] {
  const out: string[] = [];
  for (const k of Object.keys(objectAt(spec.nodeSelector))) {
    const msg = DEPRECATED_NODE_LABELS[k];
    if (msg) out.push(`${path(at, "spec.nodeSelector")}[${k}]: ${msg}`);
  }
  const node = objectAt(objectAt(spec.affinity).nodeAffinity);
  const required = path(at, "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution");
  listAt(objectAt(node.requiredDuringSchedulingIgnoredDuringExecution).nodeSelectorTerms).forEach((t, i) => {
    out.push(...termWarnings(objectAt(t), `${required}.nodeSelectorTerms[${i}]`));
  });
  const preferred = path(at, "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution");
  listAt(node.preferredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
    out.push(...termWarnings(objectAt(objectAt(t).preference), `${preferred}[${i}].preference`));
  });
  listAt(spec.topologySpreadConstraints).forEach((c, i) => {
    const constraint = objectAt(c);
    const key = stringAt(constraint.topologyKey);
    const at2 = path(at, `spec.topologySpreadConstraints[${i}]`);
    const msg = DEPRECATED_NODE_LABELS[key];
    if (msg) out.push(`${at2}.topologyKey: ${key} is ${msg}`);
    if (!isObject(constraint.labelSelector))
      out.push(`${at2}.labelSelector: a null labelSelector results in matching no pod`);
  });
  return out;
}

function termWarnings(term: Json, at: string): string[] {
  return listAt(term.matchExpressions).flatMap((e, i) => {
    const key = stringAt(objectAt(e).key);
    const msg = DEPRECATED_NODE_LABELS[key];
    return msg ? [`${at}.matchExpressions[${i}].key: ${key} is ${msg}`] : [];
  });
}

function volumeWarnings(spec: Json, at: string): string[] {
  return listAt(spec.volumes).flatMap((v, i) =>
    DEPRECATED_VOLUMES.filter(([f]) => isObject(objectAt(v)[f])).map(
      ([f, msg]) => `${path(at, `spec.volumes[${i}]`)}.${f}: ${msg}`,
    ),
  );
}

function hostAliasWarnings(spec: Json, at: string): string[] {
  const ips = listAt(spec.hostAliases).map((h) => stringAt(objectAt(h).ip));
  return ips.flatMap((ip, i) =>
    ips.indexOf(ip) < i
      ? [`${path(at, `spec.hostAliases[${i}]`)}.ip: duplicate ip ${JSON.stringify(ip)}`]
      : [],
  );
}

function pullSecretWarnings(spec: Json, at: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const secrets = listAt(spec.imagePullSecrets).map((s) => stringAt(objectAt(s).name));
  secrets.forEach((name, i) => {
    if (secrets.length > 1 && seen.has(name))
      out.push(`${path(at, `spec.imagePullSecrets[${i}]`)}.name: duplicate name ${JSON.stringify(name)}`);
    seen.add(name);
  });
  secrets.forEach((name, i) => {
    if (name === "") out.push(`${path(at, `spec.imagePullSecrets[${i}]`)}.name: invalid empty name ""`);
  });
  return out;
}

/** Upstream's visit order of a pod's containers and their paths. */
function containersWithPaths(spec: Json, at: string): [Json, string][] {
  return ["initContainers", "containers", "ephemeralContainers"].flatMap((k) =>
    listAt(spec[k]).map((c, i): [Json, string] => [objectAt(c), path(at, `spec.${k}[${i}]`)]),
  );
}

/** Upstream's test: the milli-value, rounded up, is not a whole number of units. */
function fractional(q: Quantity): boolean {
  const m = q.num * 1000n;
  const milli = m / q.den + (m % q.den > 0n ? 1n : 0n);
  return milli % 1000n !== 0n;
}

function fractionalBytes(resources: Json, at: string): string[] {
  const out: string[] = [];
  for (const name of ["memory", "ephemeral-storage"])
    for (const kind of ["limits", "requests"]) {
      const text = objectAt(resources[kind])[name];
      const q = typeof text === "string" ? quantityValue(text) : undefined;
      if (q && fractional(q))
        out.push(
          `${at}.resources.${kind}[${name}]: fractional byte value ${JSON.stringify(canonicalQuantity(text as string))} is invalid, must be an integer`,
        );
    }
  return out;
}

function envWarnings(container: Json, at: string): string[] {
  const env = listAt(container.env).map(objectAt);
  const seen = new Set<string>();
  const out: string[] = [];
  env.forEach((item, i) => {
    const name = stringAt(item.name);
    const value = stringAt(item.value);
    const ref = `$(${name})`;
    if (
      env.length > 1 &&
      seen.has(name) &&
      (isObject(item.valueFrom) || value === ref || !value.includes(ref))
    )
      out.push(
        `${at}.env[${i}]: hides previous definition of ${JSON.stringify(name)}, which may be dropped when using apply`,
      );
    seen.add(name);
  });
  return out;
}

function containerWarnings(spec: Json, meta: Json, at: string): string[] {
  const annotations = objectAt(meta.annotations);
  const out: string[] = [];
  for (const [c, cAt] of containersWithPaths(spec, at)) {
    const key = `${SECCOMP_CONTAINER}${stringAt(c.name)}`;
    if (!isObject(objectAt(c.securityContext).seccompProfile) && key in annotations)
      out.push(`${path(at, "metadata.annotations")}[${key}]: ${SECCOMP_MSG}`);
    out.push(...fractionalBytes(objectAt(c.resources), cAt), ...envWarnings(c, cAt));
  }
  return out;
}

/** The warnings for a pod's (or a template's, at `at`) spec and metadata. */
export function podSpecWarnings(spec: Json, meta: Json, at = ""): string[] {
  const annotations = objectAt(meta.annotations);
  const out = nodeLabelWarnings(spec, at);
  for (const [key, msg] of DEPRECATED_ANNOTATIONS)
    if (key in annotations) out.push(`${path(at, "metadata.annotations")}[${key}]: ${msg}`);
  out.push(...volumeWarnings(spec, at), ...hostAliasWarnings(spec, at), ...pullSecretWarnings(spec, at));
  if (!isObject(objectAt(spec.securityContext).seccompProfile) && SECCOMP_POD in annotations)
    out.push(`${path(at, "metadata.annotations")}[${SECCOMP_POD}]: ${SECCOMP_MSG}`);
  out.push(...containerWarnings(spec, meta, at));
  return out;
}
