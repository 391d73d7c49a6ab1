/**
 * core/v1 defaults inside a pod spec's volumes and downward API references: file modes (0644),
 * a service account token's hour, field references' `v1`, resource references' zero divisor, and the
 * fixed defaults of the hostPath, iSCSI, RBD, azureDisk, scaleIO, image and ephemeral sources.
 */
import { isObj, type Obj } from "../default-fields.js";

/** Sets `key` where Go would see nil (unset or null). */
function orDefault(o: Obj, key: string, value: unknown): void {
  if (o[key] === undefined || o[key] === null) o[key] = value;
}

const FILE_MODE = 0o644;

/** A field reference's API version and a resource reference's divisor (a Quantity, shown as 0). */
export function defaultDownwardRefs(ref: unknown): void {
  if (!isObj(ref)) return;
  if (isObj(ref.fieldRef)) orDefault(ref.fieldRef, "apiVersion", "v1");
  if (isObj(ref.resourceFieldRef)) orDefault(ref.resourceFieldRef, "divisor", "0");
}

function defaultDownwardItems(source: Obj): void {
  if (Array.isArray(source.items)) for (const item of source.items) defaultDownwardRefs(item);
}

function defaultProjected(p: Obj): void {
  orDefault(p, "defaultMode", FILE_MODE);
  for (const s of Array.isArray(p.sources) ? p.sources : []) {
    if (!isObj(s)) continue;
    if (isObj(s.serviceAccountToken)) orDefault(s.serviceAccountToken, "expirationSeconds", 3600);
    if (isObj(s.downwardAPI)) defaultDownwardItems(s.downwardAPI);
  }
}

/** The pull policy of an image (a container's or an image volume's): always without a tag or at latest. */
export function imagePullPolicy(reference: unknown): string {
  const ref = typeof reference === "string" ? reference : "";
  const last = ref.slice(ref.lastIndexOf("/") + 1);
  if (last.includes("@")) return "IfNotPresent";
  const colon = last.indexOf(":");
  return colon < 0 || last.slice(colon + 1) === "latest" ? "Always" : "IfNotPresent";
}

/** Each source's defaults: [source key, what to fill in]. */
const SOURCE_DEFAULTS: readonly (readonly [string, (s: Obj) => void])[] = [
  ["secret", (s) => orDefault(s, "defaultMode", FILE_MODE)],
  ["configMap", (s) => orDefault(s, "defaultMode", FILE_MODE)],
  [
    "downwardAPI",
    (s) => {
      orDefault(s, "defaultMode", FILE_MODE);
      defaultDownwardItems(s);
    },
  ],
  ["projected", defaultProjected],
  ["hostPath", (s) => orDefault(s, "type", "")],
  ["iscsi", (s) => orDefault(s, "iscsiInterface", "default")],
  [
    "rbd",
    (s) => {
      orDefault(s, "pool", "rbd");
      orDefault(s, "user", "admin");
      orDefault(s, "keyring", "/etc/ceph/keyring");
    },
  ],
  [
    "azureDisk",
    (s) => {
      orDefault(s, "cachingMode", "ReadWrite");
      orDefault(s, "fsType", "ext4");
      orDefault(s, "readOnly", false);
      orDefault(s, "kind", "Shared");
    },
  ],
  [
    "scaleIO",
    (s) => {
      orDefault(s, "storageMode", "ThinProvisioned");
      orDefault(s, "fsType", "xfs");
    },
  ],
  ["image", (s) => orDefault(s, "pullPolicy", imagePullPolicy(s.reference))],
  [
    "ephemeral",
    (s) => {
      const t = s.volumeClaimTemplate;
      if (isObj(t) && isObj(t.spec)) orDefault(t.spec, "volumeMode", "Filesystem");
    },
  ],
];

export function defaultVolumes(volumes: unknown): void {
  for (const v of Array.isArray(volumes) ? volumes : []) if (isObj(v)) defaultVolumeSources(v);
}

/**
 * The defaults of the sources `holder` names (a pod's volume, or a PersistentVolume's spec, whose
 * hostPath, iSCSI, RBD, azureDisk and scaleIO sources default alike).
 */
export function defaultVolumeSources(holder: Obj): void {
  for (const [key, fill] of SOURCE_DEFAULTS) if (isObj(holder[key])) fill(holder[key]);
}
