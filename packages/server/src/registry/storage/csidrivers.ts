/** CSIDrivers: attach required, persistent volumes, ReadWriteOnceWithFSType; DELETE answers with the object. */
import { child, set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";

export const csidrivers: KindStrategy = {
  group: "storage.k8s.io",
  resource: "csidrivers",
  returnsDeletedObject: true,
  defaults(obj) {
    const spec = child(obj, "spec");
    set(spec, "attachRequired", true);
    set(spec, "podInfoOnMount", false);
    set(spec, "volumeLifecycleModes", ["Persistent"]);
    set(spec, "storageCapacity", false);
    set(spec, "fsGroupPolicy", "ReadWriteOnceWithFSType");
    set(spec, "requiresRepublish", false);
    set(spec, "seLinuxMount", false);
  },
};
