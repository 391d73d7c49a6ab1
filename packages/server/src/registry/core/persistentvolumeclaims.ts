/** PersistentVolumeClaims: Filesystem; a new claim is Pending until something
 * binds it; the spec validated as ValidatePersistentVolumeClaimSpec, an update also as
 * ValidatePersistentVolumeClaimUpdate (persistentvolumeclaim-update.ts), /status writes as
 * ValidatePersistentVolumeClaimStatusUpdate (claim-status-rules.ts). */

import { objectAt } from "../../validation/field-errors.js";
import { claimSpecErrors } from "../../validation/volume-claims.js";
import { child, set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";
import { claimStatusErrors } from "./claim-status-rules.js";
import { claimUpdateErrors } from "./persistentvolumeclaim-update.js";

export const persistentvolumeclaims: KindStrategy = {
  group: "",
  resource: "persistentvolumeclaims",
  defaults(obj) {
    set(child(obj, "spec"), "volumeMode", "Filesystem");
  },
  prepareCreate(obj) {
    obj.status = { phase: "Pending" };
  },
  validate: (obj, old, subresource) => {
    if (subresource === "status") return claimStatusErrors(obj);
    const out = claimSpecErrors(objectAt(obj.spec), "spec");
    if (old) out.push(...claimUpdateErrors(obj, old));
    return out;
  },
};
