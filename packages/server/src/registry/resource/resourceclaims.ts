/** ResourceClaims: generation tracked; DELETE answers with the object. */
import type { KindStrategy } from "../strategy.js";

export const resourceclaims: KindStrategy = {
  group: "resource.k8s.io",
  resource: "resourceclaims",
  tracksGeneration: true,
  returnsDeletedObject: true,
};
