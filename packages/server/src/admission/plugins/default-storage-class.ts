/**
 * DefaultStorageClass (upstream plugin/pkg/admission/storage/storageclass/setdefault): a new
 * PersistentVolumeClaim that names no class (neither `spec.storageClassName`, even empty, nor the
 * beta annotation) gets the default StorageClass: the one annotated
 * `storageclass.kubernetes.io/is-default-class: "true"` (or the beta annotation), the newest when
 * several are (default-class.ts).
 */
import { defaultClassPlugin } from "./default-class.js";

export const defaultStorageClass = defaultClassPlugin({
  name: "DefaultStorageClass",
  group: "",
  resource: "persistentvolumeclaims",
  field: "storageClassName",
  classAnnotation: "volume.beta.kubernetes.io/storage-class",
  classes: "storage.k8s.io/storageclasses",
  defaultAnnotations: [
    "storageclass.kubernetes.io/is-default-class",
    "storageclass.beta.kubernetes.io/is-default-class",
  ],
});
