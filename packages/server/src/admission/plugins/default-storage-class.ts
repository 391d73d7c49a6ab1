/**
 * DefaultStorageClass (upstream plugin/pkg/admission/storage/storageclass/setdefault): a new
 * PersistentVolumeClaim that names no class (neither `spec.storageClassName`, even empty, nor the
 * beta annotation) gets the default StorageClass: the one annotated
 * `storageclass.kubernetes.io/is-default-class: "true"` (or the beta annotation), the newest when
 * several are (then by name).
 */
import type { AdmissionContext } from "../context.js";
import { type AdmissionPlugin, handlesOnly } from "../plugin.js";

type Json = Record<string, unknown>;

const CLASSES = "storage.k8s.io/storageclasses";
const CLASS_ANNOTATION = "volume.beta.kubernetes.io/storage-class";
const DEFAULT_ANNOTATIONS = [
  "storageclass.kubernetes.io/is-default-class",
  "storageclass.beta.kubernetes.io/is-default-class",
];

const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const recordAt = (v: unknown, key: string): Json => (isRecord(v) && isRecord(v[key]) ? v[key] : {});

function isDefault(sc: Json): boolean {
  const annotations = recordAt(sc.metadata, "annotations");
  return DEFAULT_ANNOTATIONS.some((k) => annotations[k] === "true");
}

/** The default class's name: the newest default, by name among equally new ones. */
function defaultClass(ctx: AdmissionContext): string | undefined {
  let best: { name: string; created: number } | undefined;
  for (const sc of ctx.store.list(CLASSES).items as Json[]) {
    if (!isDefault(sc)) continue;
    const meta = recordAt(sc, "metadata");
    const name = String(meta.name ?? "");
    const created = Date.parse(String(meta.creationTimestamp ?? "")) || 0;
    if (!best || created > best.created || (created === best.created && name < best.name))
      best = { name, created };
  }
  return best?.name;
}

export const defaultStorageClass: AdmissionPlugin = {
  name: "DefaultStorageClass",
  handles: handlesOnly("CREATE"),
  admit(a, ctx) {
    const { group, resource } = a.resource;
    if (a.subresource !== "" || group !== "" || resource !== "persistentvolumeclaims") return;
    if (!isRecord(a.object)) return;
    const spec = recordAt(a.object, "spec");
    const named = recordAt(a.object.metadata, "annotations")[CLASS_ANNOTATION] !== undefined;
    if (named || (spec.storageClassName !== undefined && spec.storageClassName !== null)) return;
    const name = defaultClass(ctx);
    if (name === undefined) return;
    a.object.spec = { ...spec, storageClassName: name };
  },
};
