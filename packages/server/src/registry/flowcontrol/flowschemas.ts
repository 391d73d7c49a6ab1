/** FlowSchemas: matching precedence 1000 by default; /status conditions checked as flow-status.ts. */
import { child } from "../default-fields.js";
import { type KindStrategy, RESET_FOR_STATUS } from "../strategy.js";
import { flowConditionErrors } from "./flow-status.js";

export const flowschemas: KindStrategy = {
  group: "flowcontrol.apiserver.k8s.io",
  resource: "flowschemas",
  statusResetsMetadata: RESET_FOR_STATUS,
  tracksGeneration: true,
  validate: flowConditionErrors,
  defaults(obj) {
    const spec = child(obj, "spec");
    if (!spec.matchingPrecedence) spec.matchingPrecedence = 1000;
  },
};
