/** ResourceSlices: generation tracked; DELETE answers with the object. */
import type { KindStrategy } from "../strategy.js";

export const resourceslices: KindStrategy = {
  group: "resource.k8s.io",
  resource: "resourceslices",
  tracksGeneration: true,
  returnsDeletedObject: true,
};
