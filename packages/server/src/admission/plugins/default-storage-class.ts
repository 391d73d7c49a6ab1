/**
 * DefaultStorageClass (upstream plugin/pkg/admission/storage/storageclass/setdefault): a new
 * PersistentVolumeClaim that names no class (neither `spec.storageClassName`, even empty, nor the
 * beta annotation) gets the default StorageClass: the one annotated
 * `storageclass.kubernetes.io/is-default-class: "true"` (or the beta annotation), the newest when
 * several are (default-class.ts).
 */
import { type AdmissionPlugin, handlesOnly } from "../plugin.js";
import { defaultClassName, recordAt } from "./default-class.js";

const CLASSES = "storage.k8s.io/storageclasses";
const CLASS_ANNOTATION = "volume.beta.kubernetes.io/storage-class";
const DEFAULT_ANNOTATIONS = [
  "storageclass.kubernetes.io/is-default-class",
  "storageclass.beta.kubernetes.io/is-default-class",
];

export const defaultStorageClass: AdmissionPlugin = {
  name: "DefaultStorageClass",
  handles: handlesOnly("CREATE"),
  admit(a, ctx) {
    const { group, resource } = a.resource;
    if (a.subresource !== "" || group !== "" || resource !== "persistentvolumeclaims" || !a.object) return;
    const spec = recordAt(a.object, "spec");
    const named = recordAt(a.object.metadata, "annotations")[CLASS_ANNOTATION] !== undefined;
    if (named || (spec.storageClassName !== undefined && spec.storageClassName !== null)) return;
    const name = defaultClassName(ctx, CLASSES, DEFAULT_ANNOTATIONS);
    if (name !== undefined) a.object.spec = { ...spec, storageClassName: name };
  },
};
