/** PersistentVolumes: Retain, Filesystem; a new volume is Pending until something
 * binds it; the spec validated as ValidatePersistentVolumeSpec. */

import { objectAt } from "../../validation/field-errors.js";
import { persistentVolumeSpecErrors } from "../../validation/volume-claims.js";
import { child, set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";
import { defaultVolumeSources } from "./volume-defaults.js";

export const persistentvolumes: KindStrategy = {
  group: "",
  resource: "persistentvolumes",
  defaults(obj) {
    const spec = child(obj, "spec");
    set(spec, "persistentVolumeReclaimPolicy", "Retain");
    set(spec, "volumeMode", "Filesystem");
    defaultVolumeSources(spec);
  },
  prepareCreate(obj) {
    obj.status = { phase: "Pending" };
  },
  validate: (obj) => persistentVolumeSpecErrors(objectAt(obj.spec)),
};
