/**
 * Pod volumes: unique DNS-1123 label names and exactly one volume source (a second one is forbidden
 * at the name upstream reports), each source checked as upstream checks it
 * (volume-sources.ts, volume-projections.ts). Mounts and devices: volume-mounts.ts.
 */

import {
  duplicate,
  type FieldError,
  forbidden,
  invalid,
  isObject,
  type Json,
  listAt,
  objectAt,
  required,
  stringAt,
} from "./field-errors.js";
import { dns1123LabelProblems, dns1123SubdomainProblems } from "./name-formats.js";
import { downwardApiSourceErrors, keyedSourceErrors, projectedSourceErrors } from "./volume-projections.js";
import {
  awsEbsChecks,
  azureDiskChecks,
  cephfsChecks,
  cinderChecks,
  csiChecks,
  emptyDirChecks,
  ephemeralChecks,
  fcChecks,
  flexChecks,
  flockerChecks,
  gcePdChecks,
  gitRepoChecks,
  hostPathChecks,
  imageChecks,
  iscsiChecks,
  needs,
  nfsChecks,
  quobyteChecks,
  rbdChecks,
  type SourceCheck,
  storageosChecks,
} from "./volume-sources.js";

/**
 * The volume sources in upstream's order: the JSON key, the path a second source is reported at
 * (upstream's spelling, which differs for two of them), the source's own checks and, where it
 * differs from the key, the path those checks report under.
 */
const SOURCES: readonly (readonly [string, string, SourceCheck?, string?])[] = [
  ["emptyDir", "emptyDir", emptyDirChecks],
  ["hostPath", "hostPath", hostPathChecks],
  ["gitRepo", "gitRepo", gitRepoChecks],
  ["gcePersistentDisk", "gcePersistentDisk", gcePdChecks, "persistentDisk"],
  ["awsElasticBlockStore", "awsElasticBlockStore", awsEbsChecks],
  ["secret", "secret", keyedSourceErrors("secretName")],
  ["nfs", "nfs", nfsChecks],
  ["iscsi", "iscsi", iscsiChecks],
  ["glusterfs", "glusterfs", needs("endpoints", "path")],
  ["flocker", "flocker", flockerChecks],
  ["persistentVolumeClaim", "persistentVolumeClaim", needs("claimName")],
  ["rbd", "rbd", rbdChecks],
  ["cinder", "cinder", cinderChecks],
  ["cephfs", "cephFS", cephfsChecks],
  ["quobyte", "quobyte", quobyteChecks],
  ["downwardAPI", "downwarAPI", downwardApiSourceErrors],
  ["fc", "fc", fcChecks],
  ["flexVolume", "flexVolume", flexChecks],
  ["configMap", "configMap", keyedSourceErrors("name")],
  ["azureFile", "azureFile", needs("secretName", "shareName")],
  ["vsphereVolume", "vsphereVolume", needs("volumePath")],
  ["photonPersistentDisk", "photonPersistentDisk", needs("pdID")],
  ["portworxVolume", "portworxVolume", needs("volumeID")],
  ["azureDisk", "azureDisk", azureDiskChecks],
  ["storageos", "storageos", storageosChecks],
  ["projected", "projected", projectedSourceErrors],
  ["scaleIO", "scaleIO", needs("gateway", "system", "volumeName")],
  ["csi", "csi", csiChecks],
  ["ephemeral", "ephemeral", ephemeralChecks],
  ["image", "image", imageChecks],
];

function sourceErrors(v: Json, at: string): FieldError[] {
  const name = stringAt(v.name);
  const out: FieldError[] = [];
  let count = 0;
  for (const [key, reportedAs, check, checkedAs = key] of SOURCES) {
    if (!isObject(v[key])) continue;
    if (count > 0) out.push(forbidden(`${at}.${reportedAs}`, "may not specify more than 1 volume type"));
    else {
      count++;
      if (check) out.push(...check(v[key] as Json, `${at}.${checkedAs}`, name));
    }
  }
  if (count === 0) out.push(required(at, "must specify a volume type"));
  return out;
}

/** ValidateVolumes: the errors and the names of the volumes that passed. */
export function volumesErrors(
  volumes: unknown,
  at: string,
): { errors: FieldError[]; names: Map<string, Json> } {
  const errors: FieldError[] = [];
  const names = new Map<string, Json>();
  listAt(volumes).forEach((raw, i) => {
    const v = objectAt(raw);
    const path = `${at}[${i}]`;
    const name = stringAt(v.name);
    const own = sourceErrors(v, path);
    if (name === "") own.push(required(`${path}.name`));
    else for (const m of dns1123LabelProblems(name)) own.push(invalid(`${path}.name`, name, m));
    if (names.has(name)) own.push(duplicate(`${path}.name`, name));
    if (own.length === 0) names.set(name, v);
    else errors.push(...own);
  });
  return { errors, names };
}

/**
 * The claims a pod's ephemeral volumes get (`<pod>-<volume>`): each name must be a subdomain, and
 * no persistentVolumeClaim volume may name one. Only a pod (not a template) has the name to check.
 */
export function ephemeralClaimNameErrors(volumes: unknown, podName: string, at: string): FieldError[] {
  if (podName === "") return [];
  const out: FieldError[] = [];
  const list = listAt(volumes).map(objectAt);
  const created = new Set(
    list.filter((v) => isObject(v.ephemeral)).map((v) => `${podName}-${stringAt(v.name)}`),
  );
  list.forEach((v, i) => {
    const name = stringAt(v.name);
    // Only the first source is checked upstream; a second is refused anyway.
    const first = SOURCES.find(([key]) => isObject(v[key]))?.[0];
    if (first === "ephemeral" && name !== "") {
      const pvc = `${podName}-${name}`;
      for (const m of dns1123SubdomainProblems(pvc))
        out.push(invalid(`${at}[${i}].name`, name, `PVC name ${JSON.stringify(pvc)}: ${m}`));
    }
    const claim = stringAt(objectAt(v.persistentVolumeClaim).claimName);
    if (isObject(v.persistentVolumeClaim) && created.has(claim))
      out.push(
        invalid(
          `${at}[${i}].persistentVolumeClaim.claimName`,
          claim,
          "must not reference a PVC that gets created for an ephemeral volume",
        ),
      );
  });
  return out;
}
