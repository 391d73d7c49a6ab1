/**
 * Restricted volume types: besides hostPath, only volume sources defined through the API objects
 * a namespace owns (configMap, secret, downwardAPI, emptyDir, projected, ephemeral, claims) and CSI.
 */
import {
  ALLOWED,
  arr,
  type Check,
  type CheckResult,
  type Json,
  joinQuote,
  nameOf,
  plural,
  refuse,
  sortedSet,
} from "./model.js";

const ALLOWED_SOURCES = [
  "configMap",
  "csi",
  "downwardAPI",
  "emptyDir",
  "ephemeral",
  "persistentVolumeClaim",
  "projected",
  "secret",
];
/** The restricted sources, in the order upstream names the first one a volume sets. */
const RESTRICTED_SOURCES = [
  "hostPath",
  "gcePersistentDisk",
  "awsElasticBlockStore",
  "gitRepo",
  "nfs",
  "iscsi",
  "glusterfs",
  "rbd",
  "flexVolume",
  "cinder",
  "cephfs",
  "flocker",
  "fc",
  "azureFile",
  "vsphereVolume",
  "quobyte",
  "azureDisk",
  "photonPersistentDisk",
  "portworxVolume",
  "scaleIO",
  "storageos",
];
const has = (v: Json, key: string) => v[key] !== undefined && v[key] !== null;

function restrictedVolumes(_meta: Json, spec: Json): CheckResult {
  const names: string[] = [];
  const types: string[] = [];
  for (const v of arr(spec.volumes)) {
    if (ALLOWED_SOURCES.some((k) => has(v, k))) continue;
    names.push(nameOf(v));
    types.push(RESTRICTED_SOURCES.find((k) => has(v, k)) ?? "unknown");
  }
  if (names.length === 0) return ALLOWED;
  const list = sortedSet(types);
  return refuse(
    "restricted volume types",
    `${plural("volume", "volumes", names.length)} ${joinQuote(names)} ${plural("uses", "use", names.length)} ${plural("restricted volume type", "restricted volume types", list.length)} ${joinQuote(list)}`,
  );
}

export const restrictedVolumesCheck: Check = {
  id: "restrictedVolumes",
  level: "restricted",
  versions: [{ minor: 0, fn: restrictedVolumes }],
};
