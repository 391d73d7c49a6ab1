/**
 * The checks of the volume sources that mount storage (host paths, network and cloud disks, CSI,
 * ephemeral claims, images): required fields, ranges and formats, as upstream's validateVolumeSource
 * calls them.
 */
import {
  type FieldError,
  forbidden,
  invalid,
  isObject,
  type Json,
  listAt,
  notSupported,
  objectAt,
  required,
  stringAt,
  tooLong,
} from "./field-errors.js";
import { inclusiveRange } from "./format-rules.js";
import { labelMapErrors } from "./label-selector.js";
import { dns1123LabelProblems, dns1123SubdomainProblems } from "./name-formats.js";
import { annotationMapErrors } from "./object-meta.js";
import { quantityValue } from "./quantity-value.js";
import { claimSpecErrors } from "./volume-claims.js";
import { localDescendingErrors, noBacksteps } from "./volume-paths.js";

export type SourceCheck = (source: Json, at: string, volumeName: string) => FieldError[];

/** Required string fields of a source. */
export const needs =
  (...keys: string[]): SourceCheck =>
  (s, at) =>
    keys.filter((k) => stringAt(s[k]) === "").map((k) => required(`${at}.${k}`));
const needsList =
  (key: string): SourceCheck =>
  (s, at) =>
    listAt(s[key]).length === 0 ? [required(`${at}.${key}`)] : [];
const both =
  (...checks: SourceCheck[]): SourceCheck =>
  (s, at, name) =>
    checks.flatMap((c) => c(s, at, name));
const secretRefName: SourceCheck = (s, at) =>
  isObject(s.secretRef) && stringAt(s.secretRef.name) === "" ? [required(`${at}.secretRef.name`)] : [];
const label = (value: string, field: string) =>
  dns1123LabelProblems(value).map((m) => invalid(field, value, m));

export const emptyDirChecks: SourceCheck = (s, at) => {
  const q = s.sizeLimit == null ? undefined : quantityValue(String(s.sizeLimit));
  return q?.negative
    ? [forbidden(`${at}.sizeLimit`, "SizeLimit field must be a valid resource quantity")]
    : [];
};

const HOST_PATH_TYPES = [
  "",
  "BlockDevice",
  "CharDevice",
  "Directory",
  "DirectoryOrCreate",
  "File",
  "FileOrCreate",
  "Socket",
];

export const hostPathChecks: SourceCheck = (s, at) => {
  const path = stringAt(s.path);
  if (path === "") return [required(`${at}.path`)];
  const out = noBacksteps(path, `${at}.path`);
  if (typeof s.type === "string" && !HOST_PATH_TYPES.includes(s.type))
    out.push(notSupported(`${at}.type`, s.type, HOST_PATH_TYPES));
  return out;
};

export const gitRepoChecks: SourceCheck = (s, at) => [
  ...needs("repository")(s, at, ""),
  ...localDescendingErrors(stringAt(s.directory), `${at}.directory`),
];

/** A disk partition (GCE, AWS): upstream's message says 1-255 while 0 passes. */
const partitioned =
  (key: string): SourceCheck =>
  (s, at) => {
    const p = typeof s.partition === "number" ? s.partition : 0;
    const out = needs(key)(s, at, "");
    if (p < 0 || p > 255) out.push(invalid(`${at}.partition`, p, inclusiveRange(1, 255)));
    return out;
  };
export const gcePdChecks = partitioned("pdName");
export const awsEbsChecks = partitioned("volumeID");

export const nfsChecks: SourceCheck = (s, at) => {
  const out = needs("server", "path")(s, at, "");
  const path = stringAt(s.path);
  if (!path.startsWith("/")) out.push(invalid(`${at}.path`, path, "must be an absolute path"));
  return out;
};

const IQN = /iqn\.\d{4}-\d{2}\.([A-Za-z0-9\-.]+)(:[^,;*&$|\s]+)$/;
const EUI = /^eui.[A-Za-z0-9]{16}$/;
const NAA = /^naa.[A-Za-z0-9]{32}$/;

function iscsiNameErrors(value: string, field: string): FieldError[] {
  if (!["iqn", "eui", "naa"].some((p) => value.startsWith(p)))
    return [invalid(field, value, "must be valid format starting with iqn, eui, or naa")];
  const re = value.startsWith("iqn") ? IQN : value.startsWith("eui") ? EUI : NAA;
  return re.test(value) ? [] : [invalid(field, value, "must be valid format")];
}

export const iscsiChecks: SourceCheck = (s, at, name) => {
  const out = needs("targetPortal")(s, at, "");
  const iqn = stringAt(s.iqn);
  out.push(...(iqn === "" ? [required(`${at}.iqn`)] : iscsiNameErrors(iqn, `${at}.iqn`)));
  const lun = typeof s.lun === "number" ? s.lun : 0;
  if (lun < 0 || lun > 255) out.push(invalid(`${at}.lun`, lun, inclusiveRange(0, 255)));
  if ((s.chapAuthDiscovery === true || s.chapAuthSession === true) && !isObject(s.secretRef))
    out.push(required(`${at}.secretRef`));
  if (typeof s.initiatorName === "string") {
    out.push(...iscsiNameErrors(s.initiatorName, `${at}.initiatorname`));
    if (`${name}:${stringAt(s.targetPortal)}`.length > 64)
      out.push(
        invalid(
          `${at.slice(0, at.lastIndexOf("."))}.name`,
          name,
          "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.",
        ),
      );
  }
  return out;
};

export const flockerChecks: SourceCheck = (s, at) => {
  const out: FieldError[] = [];
  const name = stringAt(s.datasetName);
  const uuid = stringAt(s.datasetUUID);
  if (name === "" && uuid === "") out.push(required(at, "one of datasetName and datasetUUID is required"));
  if (name !== "" && uuid !== "")
    out.push(invalid(at, "resource", "datasetName and datasetUUID can not be specified simultaneously"));
  if (name.includes("/")) out.push(invalid(`${at}.datasetName`, name, "must not contain '/'"));
  return out;
};

export const rbdChecks = both(needsList("monitors"), needs("image"));
export const cinderChecks = both(needs("volumeID"), secretRefName);
export const cephfsChecks = needsList("monitors");

export const fcChecks: SourceCheck = (s, at) => {
  const out: FieldError[] = [];
  const wwns = listAt(s.targetWWNs);
  const wwids = listAt(s.wwids);
  if (wwns.length === 0 && wwids.length === 0)
    out.push(required(`${at}.targetWWNs`, "must specify either targetWWNs or wwids, but not both"));
  if (wwns.length > 0 && wwids.length > 0)
    out.push(invalid(`${at}.targetWWNs`, wwns, "targetWWNs and wwids can not be specified simultaneously"));
  if (wwns.length > 0) {
    if (typeof s.lun !== "number")
      out.push(required(`${at}.lun`, "lun is required if targetWWNs is specified"));
    else if (s.lun < 0 || s.lun > 255) out.push(invalid(`${at}.lun`, s.lun, inclusiveRange(0, 255)));
  }
  return out;
};

export const flexChecks: SourceCheck = (s, at) => {
  const out = needs("driver")(s, at, "");
  for (const k of Object.keys(objectAt(s.options))) {
    const ns = `.${(k.includes("/") ? k.slice(0, k.indexOf("/")) : k).toLowerCase()}`;
    if (ns.endsWith(".kubernetes.io") || ns.endsWith(".k8s.io"))
      out.push(invalid(`${at}.options[${k}]`, k, "kubernetes.io and k8s.io namespaces are reserved"));
  }
  return out;
};

const BLOB_URI = "https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd";
const MANAGED_URI =
  "/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}";

export const azureDiskChecks: SourceCheck = (s, at) => {
  const out = needs("diskName")(s, at, "");
  const uri = stringAt(s.diskURI);
  if (uri === "") out.push(required(`${at}.diskURI`));
  if (typeof s.cachingMode === "string" && !["None", "ReadOnly", "ReadWrite"].includes(s.cachingMode))
    out.push(notSupported(`${at}.cachingMode`, s.cachingMode, ["None", "ReadOnly", "ReadWrite"]));
  // v1 defaulting makes an unset kind Shared.
  const kind = typeof s.kind === "string" ? s.kind : "Shared";
  if (!["Dedicated", "Managed", "Shared"].includes(kind))
    out.push(notSupported(`${at}.kind`, kind, ["Dedicated", "Managed", "Shared"]));
  if (kind === "Managed" && !uri.startsWith("/subscriptions/"))
    out.push(notSupported(`${at}.diskURI`, uri, [MANAGED_URI]));
  if (kind !== "Managed" && !uri.startsWith("https://"))
    out.push(notSupported(`${at}.diskURI`, uri, [BLOB_URI]));
  return out;
};

export const storageosChecks: SourceCheck = (s, at) => {
  const name = stringAt(s.volumeName);
  const out = name === "" ? [required(`${at}.volumeName`)] : label(name, `${at}.volumeName`);
  const ns = stringAt(s.volumeNamespace);
  if (ns !== "") out.push(...label(ns, `${at}.volumeNamespace`));
  return [...out, ...secretRefName(s, at, "")];
};

export const quobyteChecks: SourceCheck = (s, at) => {
  const out: FieldError[] = [];
  const registry = stringAt(s.registry);
  const hostPorts = "must be a host:port pair or multiple pairs separated by commas";
  if (registry === "") out.push(required(`${at}.registry`, hostPorts));
  else if (stringAt(s.tenant).length >= 65)
    out.push(required(`${at}.tenant`, "must be a UUID and may not exceed a length of 64 characters"));
  else
    for (const pair of registry.split(","))
      if (!/^(\[[^\]]*\]|[^:[\]]*):[^:]*$/.test(pair))
        out.push(invalid(`${at}.registry`, registry, hostPorts));
  return [...out, ...needs("volume")(s, at, "")];
};

/** ValidateCSIDriverName, and a node publish secret's name (reported at `csi.name`). */
export const csiChecks: SourceCheck = (s, at) => {
  const out: FieldError[] = [];
  const driver = stringAt(s.driver);
  // 1.37 reports an empty driver as required only.
  if (driver === "") out.push(required(`${at}.driver`));
  else {
    if (driver.length > 63) out.push(tooLong(`${at}.driver`, 63));
    out.push(
      ...dns1123SubdomainProblems(driver.toLowerCase()).map((m) => invalid(`${at}.driver`, driver, m)),
    );
  }
  if (isObject(s.nodePublishSecretRef)) {
    const name = stringAt(s.nodePublishSecretRef.name);
    if (name === "") out.push(required(`${at}.nodePublishSecretRef.name`));
    else out.push(...dns1123SubdomainProblems(name).map((m) => invalid(`${at}.name`, name, m)));
  }
  return out;
};

/** An ephemeral volume's claim template: labels and annotations only, and a valid claim spec. */
export const ephemeralChecks: SourceCheck = (s, at) => {
  if (!isObject(s.volumeClaimTemplate)) return [required(`${at}.volumeClaimTemplate`)];
  const t = s.volumeClaimTemplate;
  const meta = objectAt(t.metadata);
  const path = `${at}.volumeClaimTemplate`;
  const out = annotationMapErrors(meta.annotations, `${path}.metadata.annotations`);
  out.push(...labelMapErrors(meta.labels, `${path}.metadata.labels`));
  for (const k of Object.keys(meta))
    if (k !== "labels" && k !== "annotations" && meta[k] != null)
      out.push(forbidden(`${path}.metadata.${k === "uid" ? "uID" : k}`, "cannot be set"));
  out.push(...claimSpecErrors(objectAt(t.spec), `${path}.spec`));
  return out;
};

const PULL_POLICIES = ["Always", "IfNotPresent", "Never"];

export const imageChecks: SourceCheck = (s, at) => {
  const out = needs("reference")(s, at, "");
  if (typeof s.pullPolicy === "string" && s.pullPolicy !== "" && !PULL_POLICIES.includes(s.pullPolicy))
    out.push(notSupported(`${at}.pullPolicy`, s.pullPolicy, PULL_POLICIES));
  return out;
};
