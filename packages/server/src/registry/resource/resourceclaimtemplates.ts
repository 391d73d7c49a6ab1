/** ResourceClaimTemplates: DELETE answers with the object. */
import type { KindStrategy } from "../strategy.js";

export const resourceclaimtemplates: KindStrategy = {
  group: "resource.k8s.io",
  resource: "resourceclaimtemplates",
  returnsDeletedObject: true,
};
