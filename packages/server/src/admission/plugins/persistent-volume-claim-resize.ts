/**
 * PersistentVolumeClaimResize (upstream plugin/pkg/admission/storage/persistentvolume/resize): a
 * claim's storage request may grow only while the claim is Bound, and only when it keeps naming the
 * same StorageClass and that class has `allowVolumeExpansion: true`; else the update is refused 403.
 * Shrinking and unchanged requests are left to validation.
 */

import { type AdmissionPlugin, forbidden, handlesOnly } from "../plugin.js";
import { compareAmounts } from "../quota/amounts.js";
import { isRecord, type Json, objectOf, recordAt } from "./target.js";

const CLASSES = "storage.k8s.io/storageclasses";
const BETA_CLASS_ANNOTATION = "volume.beta.kubernetes.io/storage-class";

const storageRequest = (claim: Json): string | undefined => {
  const v = recordAt(recordAt(recordAt(claim, "spec"), "resources"), "requests").storage;
  return typeof v === "string" || typeof v === "number" ? String(v) : undefined;
};

/** The claim's class: the beta annotation wins over the field, as upstream reads it. */
function classOf(claim: Json): string {
  const annotation = recordAt(recordAt(claim, "metadata"), "annotations")[BETA_CLASS_ANNOTATION];
  if (typeof annotation === "string") return annotation;
  const name = recordAt(claim, "spec").storageClassName;
  return typeof name === "string" ? name : "";
}

export const persistentVolumeClaimResize: AdmissionPlugin = {
  name: "PersistentVolumeClaimResize",
  handles: handlesOnly("UPDATE"),
  validate(a, ctx) {
    const claim = objectOf(a, "", "persistentvolumeclaims");
    const old = a.oldObject;
    if (!claim || !isRecord(old)) return;
    const before = storageRequest(old);
    const now = storageRequest(claim);
    if (now === undefined || compareAmounts(now, before ?? "0") <= 0) return;
    if (recordAt(old, "status").phase !== "Bound")
      throw forbidden(a, "Only bound persistent volume claims can be expanded");
    const name = classOf(claim);
    const sc =
      name !== "" && name === classOf(old) ? (ctx.store.get(CLASSES, name) as Json | undefined) : undefined;
    if (sc?.allowVolumeExpansion !== true)
      throw forbidden(
        a,
        "only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize",
      );
  },
};
