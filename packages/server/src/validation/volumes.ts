/**
 * Pod volumes and container volume mounts: unique DNS-1123 label names, exactly one volume source
 * (a second one is forbidden at the name upstream reports), the required field of the common
 * sources, a pod certificate's lifetime bounds, and mounts that name a volume of the pod at a unique path.
 */

import {
  duplicate,
  type FieldError,
  forbidden,
  invalid,
  isObject,
  listAt,
  notFound,
  objectAt,
  required,
  stringAt,
} from "./field-errors.js";
import { dns1123LabelProblems } from "./name-formats.js";

type Json = Record<string, unknown>;
type SourceCheck = (source: Json, at: string) => FieldError[];

const needs =
  (key: string): SourceCheck =>
  (s, at) =>
    stringAt(s[key]) === "" ? [required(`${at}.${key}`)] : [];

const HOUR = 3600;
/** The longest a pod certificate may live: 91 days, one day for a kubernetes.io signer. */
const maxPodCertificateSeconds = (signer: string) => {
  const host = signer.split("/")[0] ?? "";
  return host === "kubernetes.io" || host.endsWith(".kubernetes.io") ? 24 * HOUR : 91 * 24 * HOUR;
};

/** A projected volume's podCertificate sources: maxExpirationSeconds, when given, within bounds. */
const projectedChecks: SourceCheck = (s, at) =>
  listAt(s.sources).flatMap((raw, i) => {
    const cert = objectAt(objectAt(raw).podCertificate);
    const seconds = cert.maxExpirationSeconds;
    if (typeof seconds !== "number") return [];
    const field = `${at}.sources[${i}].podCertificate.maxExpirationSeconds`;
    const max = maxPodCertificateSeconds(stringAt(cert.signerName));
    const out: FieldError[] = [];
    if (seconds < HOUR)
      out.push(invalid(field, seconds, `if provided, maxExpirationSeconds must be >= ${HOUR}`));
    if (seconds > max)
      out.push(invalid(field, seconds, `if provided, maxExpirationSeconds must be <= ${max}`));
    return out;
  });

/**
 * The volume sources in upstream's order: the JSON key, the path a second source is reported at
 * (upstream's spelling, which differs for two of them) and the source's own checks.
 */
const SOURCES: readonly (readonly [string, string, SourceCheck?])[] = [
  ["emptyDir", "emptyDir"],
  ["hostPath", "hostPath", needs("path")],
  ["gitRepo", "gitRepo", needs("repository")],
  ["gcePersistentDisk", "gcePersistentDisk"],
  ["awsElasticBlockStore", "awsElasticBlockStore"],
  ["secret", "secret", needs("secretName")],
  ["nfs", "nfs"],
  ["iscsi", "iscsi"],
  ["glusterfs", "glusterfs"],
  ["flocker", "flocker"],
  ["persistentVolumeClaim", "persistentVolumeClaim", needs("claimName")],
  ["rbd", "rbd"],
  ["cinder", "cinder"],
  ["cephfs", "cephFS"],
  ["quobyte", "quobyte"],
  ["downwardAPI", "downwarAPI"],
  ["fc", "fc"],
  ["flexVolume", "flexVolume"],
  ["configMap", "configMap", needs("name")],
  ["azureFile", "azureFile"],
  ["vsphereVolume", "vsphereVolume"],
  ["photonPersistentDisk", "photonPersistentDisk"],
  ["portworxVolume", "portworxVolume"],
  ["azureDisk", "azureDisk"],
  ["storageos", "storageos"],
  ["projected", "projected", projectedChecks],
  ["scaleIO", "scaleIO"],
  ["csi", "csi", needs("driver")],
  ["ephemeral", "ephemeral"],
  ["image", "image"],
];

function sourceErrors(v: Json, at: string): FieldError[] {
  const out: FieldError[] = [];
  let count = 0;
  for (const [key, reportedAs, check] of SOURCES) {
    if (!isObject(v[key])) continue;
    if (count > 0) out.push(forbidden(`${at}.${reportedAs}`, "may not specify more than 1 volume type"));
    else {
      count++;
      if (check) out.push(...check(v[key] as Json, `${at}.${key}`));
    }
  }
  if (count === 0) out.push(required(at, "must specify a volume type"));
  return out;
}

/** ValidateVolumes: the errors and the names of the volumes that passed. */
export function volumesErrors(volumes: unknown, at: string): { errors: FieldError[]; names: Set<string> } {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  listAt(volumes).forEach((raw, i) => {
    const v = objectAt(raw);
    const path = `${at}[${i}]`;
    const name = stringAt(v.name);
    const own = sourceErrors(v, path);
    if (name === "") own.push(required(`${path}.name`));
    else for (const m of dns1123LabelProblems(name)) own.push(invalid(`${path}.name`, name, m));
    if (names.has(name)) own.push(duplicate(`${path}.name`, name));
    if (own.length === 0) names.add(name);
    else errors.push(...own);
  });
  return { errors, names };
}

/** ValidateVolumeMounts (name, mount path, uniqueness; subPath rules are not checked). */
export function volumeMountErrors(mounts: unknown, volumes: ReadonlySet<string>, at: string): FieldError[] {
  const out: FieldError[] = [];
  const paths = new Set<string>();
  listAt(mounts).forEach((raw, i) => {
    const m = objectAt(raw);
    const path = `${at}[${i}]`;
    const name = stringAt(m.name);
    if (name === "") out.push(required(`${path}.name`));
    if (!volumes.has(name)) out.push(notFound(`${path}.name`, name));
    const mountPath = stringAt(m.mountPath);
    if (mountPath === "") out.push(required(`${path}.mountPath`));
    if (paths.has(mountPath)) out.push(invalid(`${path}.mountPath`, mountPath, "must be unique"));
    paths.add(mountPath);
  });
  return out;
}
