/** FlowSchemas: matching precedence 1000 by default. */
import { child } from "../default-fields.js";
import { type KindStrategy, RESET_FOR_STATUS } from "../strategy.js";

export const flowschemas: KindStrategy = {
  group: "flowcontrol.apiserver.k8s.io",
  resource: "flowschemas",
  statusResetsMetadata: RESET_FOR_STATUS,
  tracksGeneration: true,
  defaults(obj) {
    const spec = child(obj, "spec");
    if (!spec.matchingPrecedence) spec.matchingPrecedence = 1000;
  },
};
