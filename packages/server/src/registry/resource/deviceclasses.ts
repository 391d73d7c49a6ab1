/** DeviceClasses: generation tracked; DELETE answers with the object. */
import type { KindStrategy } from "../strategy.js";

export const deviceclasses: KindStrategy = {
  group: "resource.k8s.io",
  resource: "deviceclasses",
  tracksGeneration: true,
  returnsDeletedObject: true,
};
