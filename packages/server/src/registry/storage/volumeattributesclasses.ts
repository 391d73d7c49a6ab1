/** VolumeAttributesClasses: DELETE answers with the object. */
import type { KindStrategy } from "../strategy.js";

export const volumeattributesclasses: KindStrategy = {
  group: "storage.k8s.io",
  resource: "volumeattributesclasses",
  returnsDeletedObject: true,
};
