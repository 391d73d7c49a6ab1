/** StorageClasses: Delete, bind immediately; DELETE answers with the object. */
import { set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";

export const storageclasses: KindStrategy = {
  group: "storage.k8s.io",
  resource: "storageclasses",
  returnsDeletedObject: true,
  defaults(obj) {
    set(obj, "reclaimPolicy", "Delete");
    set(obj, "volumeBindingMode", "Immediate");
  },
};
