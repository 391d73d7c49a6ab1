/** ResourceClaims: generation tracked; DELETE answers with the object; /status as claim-status.ts. */
import { type KindStrategy, RESET_FOR_STATUS } from "../strategy.js";
import { claimStatusErrors } from "./claim-status.js";

export const resourceclaims: KindStrategy = {
  group: "resource.k8s.io",
  resource: "resourceclaims",
  statusResetsMetadata: RESET_FOR_STATUS,
  tracksGeneration: true,
  returnsDeletedObject: true,
  validate: (obj, _old, subresource) => (subresource === "status" ? claimStatusErrors(obj).list() : []),
};
