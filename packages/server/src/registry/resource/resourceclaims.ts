/** ResourceClaims: generation tracked; DELETE answers with the object. */
import { type KindStrategy, RESET_FOR_STATUS } from "../strategy.js";

export const resourceclaims: KindStrategy = {
  group: "resource.k8s.io",
  resource: "resourceclaims",
  statusResetsMetadata: RESET_FOR_STATUS,
  tracksGeneration: true,
  returnsDeletedObject: true,
};
