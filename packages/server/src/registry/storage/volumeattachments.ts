/** VolumeAttachments: DELETE answers with the object. */
import type { KindStrategy } from "../strategy.js";

export const volumeattachments: KindStrategy = {
  group: "storage.k8s.io",
  resource: "volumeattachments",
  returnsDeletedObject: true,
};
