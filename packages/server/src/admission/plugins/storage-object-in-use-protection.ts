/**
 * StorageObjectInUseProtection (upstream plugin/pkg/admission/storage/storageobjectinuseprotection):
 * a new PersistentVolumeClaim gets the `kubernetes.io/pvc-protection` finalizer and a new
 * PersistentVolume `kubernetes.io/pv-protection`, so that neither goes while in use; the
 * reference server's controllers/storage-protection-controller.ts removes them when it may.
 */
import { type AdmissionPlugin, handlesOnly } from "../plugin.js";
import { isRecord, recordAt } from "./target.js";

const FINALIZERS: Readonly<Record<string, string>> = {
  persistentvolumeclaims: "kubernetes.io/pvc-protection",
  persistentvolumes: "kubernetes.io/pv-protection",
};

export const storageObjectInUseProtection: AdmissionPlugin = {
  name: "StorageObjectInUseProtection",
  handles: handlesOnly("CREATE"),
  admit(a) {
    const finalizer = a.resource.group === "" ? FINALIZERS[a.resource.resource] : undefined;
    if (a.subresource !== "" || !finalizer || !isRecord(a.object)) return;
    const meta = recordAt(a.object, "metadata");
    a.object.metadata = meta;
    const finalizers = Array.isArray(meta.finalizers) ? meta.finalizers : [];
    if (!finalizers.includes(finalizer)) meta.finalizers = [...finalizers, finalizer];
  },
};
