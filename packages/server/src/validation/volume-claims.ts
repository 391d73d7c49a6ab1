/**
 * PersistentVolumeClaim specs (claims and StatefulSet claim templates) and PersistentVolume specs,
 * as ValidatePersistentVolumeClaimSpec and ValidatePersistentVolumeSpec check them: access modes,
 * storage requested or offered, class names, volume modes, exactly one volume source.
 */
import {
  type FieldError,
  forbidden,
  goJson,
  invalid,
  isObject,
  listAt,
  notSupported,
  objectAt,
  required,
  stringAt,
} from "./field-errors.js";
import { labelSelectorErrors } from "./label-selector.js";
import { dns1123SubdomainProblems } from "./name-formats.js";
import { Quantity, quantityValue } from "./quantity-value.js";
import { quantityValueErrors } from "./resources.js";

type Json = Record<string, unknown>;

const ACCESS_MODES = ["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"];
const VOLUME_MODES = ["Block", "Filesystem"];
const RECLAIM_POLICIES = ["Delete", "Recycle", "Retain"];
const ZERO = new Quantity(0n, 1n);

function accessModeErrors(modes: unknown, at: string, requiredDetail: string): FieldError[] {
  const list = listAt(modes).map(stringAt);
  const out: FieldError[] = list.length === 0 ? [required(`${at}.accessModes`, requiredDetail)] : [];
  for (const m of list)
    if (!ACCESS_MODES.includes(m)) out.push(notSupported(`${at}.accessModes`, m, ACCESS_MODES));
  const once = list.includes("ReadWriteOncePod");
  if (once && list.some((m) => m !== "ReadWriteOncePod" && ACCESS_MODES.includes(m)))
    out.push(forbidden(`${at}.accessModes`, "may not use ReadWriteOncePod with other access modes"));
  return out;
}

function classNameErrors(name: unknown, field: string): FieldError[] {
  const v = stringAt(name);
  return v === "" ? [] : dns1123SubdomainProblems(v).map((m) => invalid(field, v, m));
}

function volumeModeErrors(mode: unknown, field: string): FieldError[] {
  return mode != null && !VOLUME_MODES.includes(stringAt(mode))
    ? [notSupported(field, stringAt(mode), VOLUME_MODES)]
    : [];
}

const positive = (text: string, field: string): FieldError[] => {
  const q = quantityValue(text);
  return q && q.compare(ZERO) <= 0 ? [invalid(field, text, "must be greater than zero")] : [];
};

/** ValidatePersistentVolumeClaimSpec. */
export function claimSpecErrors(spec: Json, at: string): FieldError[] {
  const out = accessModeErrors(spec.accessModes, at, "at least 1 access mode is required");
  if (isObject(spec.selector)) out.push(...labelSelectorErrors(spec.selector, `${at}.selector`));
  const storage = objectAt(objectAt(spec.resources).requests).storage;
  const field = `${at}.resources[storage]`;
  if (storage === undefined) out.push(required(field));
  else {
    const text = String(storage);
    const notPositive = positive(text, field);
    out.push(...(notPositive.length > 0 ? notPositive : quantityValueErrors("storage", text, field)));
  }
  out.push(...classNameErrors(spec.storageClassName, `${at}.storageClassName`));
  out.push(...volumeModeErrors(spec.volumeMode, `${at}.volumeMode`));
  return out;
}

const PV_SOURCES: readonly (readonly [string, string])[] = [
  ["hostPath", "hostPath"],
  ["gcePersistentDisk", "gcePersistentDisk"],
  ["awsElasticBlockStore", "awsElasticBlockStore"],
  ["glusterfs", "glusterfs"],
  ["flocker", "flocker"],
  ["nfs", "nfs"],
  ["rbd", "rbd"],
  ["quobyte", "quobyte"],
  ["cephfs", "cephFS"],
  ["iscsi", "iscsi"],
  ["cinder", "cinder"],
  ["fc", "fc"],
  ["azureFile", "azureFile"],
  ["vsphereVolume", "vsphereVolume"],
  ["photonPersistentDisk", "photonPersistentDisk"],
  ["portworxVolume", "portworxVolume"],
  ["azureDisk", "azureDisk"],
  ["scaleIO", "scaleIO"],
  ["local", "local"],
  ["storageos", "storageos"],
  ["csi", "csi"],
];

function pvSourceErrors(spec: Json): FieldError[] {
  const out: FieldError[] = [];
  let count = 0;
  for (const [key, reportedAs] of PV_SOURCES) {
    if (!isObject(spec[key])) continue;
    if (count > 0) out.push(forbidden(`spec.${reportedAs}`, "may not specify more than 1 volume type"));
    else {
      count++;
      const source = spec[key] as Json;
      if (key === "hostPath" && stringAt(source.path) === "") out.push(required("spec.hostPath.path"));
      if (key === "local" && stringAt(source.path) === "") out.push(required("spec.local.path"));
      if (key === "csi" && stringAt(source.driver) === "") out.push(required("spec.csi.driver"));
      if (key === "csi" && stringAt(source.volumeHandle) === "") out.push(required("spec.csi.volumeHandle"));
      if (key === "nfs" && stringAt(source.server) === "") out.push(required("spec.nfs.server"));
      if (key === "nfs" && stringAt(source.path) === "") out.push(required("spec.nfs.path"));
    }
  }
  if (count === 0) out.push(required("spec", "must specify a volume type"));
  return out;
}

/** ValidatePersistentVolumeSpec (not inline). */
export function persistentVolumeSpecErrors(spec: Json): FieldError[] {
  const out = accessModeErrors(spec.accessModes, "spec", "");
  const capacity = isObject(spec.capacity) ? spec.capacity : {};
  const names = Object.keys(capacity);
  if (names.length === 0) out.push(required("spec.capacity"));
  if (!names.includes("storage") || names.length > 1)
    out.push(notSupported("spec.capacity", names.length === 0 ? null : goJson(capacity), ["storage"]));
  for (const [name, qty] of Object.entries(capacity)) {
    const text = String(qty);
    const q = quantityValue(text);
    if (q && q.compare(ZERO) < 0)
      out.push(invalid(`spec.capacity[${name}]`, Number(q.num / q.den), "must be a valid resource quantity"));
    out.push(...positive(text, `spec.capacity[${name}]`));
  }
  const policy = stringAt(spec.persistentVolumeReclaimPolicy);
  if (policy !== "" && !RECLAIM_POLICIES.includes(policy))
    out.push(notSupported("spec.persistentVolumeReclaimPolicy", policy, RECLAIM_POLICIES));
  out.push(...pvSourceErrors(spec));
  out.push(...classNameErrors(spec.storageClassName, "spec.storageClassName"));
  out.push(...volumeModeErrors(spec.volumeMode, "spec.volumeMode"));
  return out;
}
