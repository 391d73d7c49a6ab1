/** CSINodes: DELETE answers with the object. */
import type { KindStrategy } from "../strategy.js";

export const csinodes: KindStrategy = {
  group: "storage.k8s.io",
  resource: "csinodes",
  returnsDeletedObject: true,
};
