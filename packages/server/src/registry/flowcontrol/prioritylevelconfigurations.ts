/** PriorityLevelConfigurations: limited levels get 30 shares; queuing 64 queues, hands of 8, 50 a queue. */
import { isObj, type Obj, set } from "../default-fields.js";
import { type KindStrategy, RESET_FOR_STATUS } from "../strategy.js";
import { flowConditionErrors } from "./flow-status.js";

export const prioritylevelconfigurations: KindStrategy = {
  group: "flowcontrol.apiserver.k8s.io",
  resource: "prioritylevelconfigurations",
  statusResetsMetadata: RESET_FOR_STATUS,
  tracksGeneration: true,
  validate: flowConditionErrors,
  defaults(obj) {
    const limited = (obj.spec as Obj | undefined)?.limited;
    if (!isObj(limited)) return;
    set(limited, "nominalConcurrencyShares", 30);
    set(limited, "lendablePercent", 0);
    const queuing = isObj(limited.limitResponse) ? limited.limitResponse.queuing : undefined;
    if (!isObj(queuing)) return;
    set(queuing, "queues", 64);
    set(queuing, "handSize", 8);
    set(queuing, "queueLengthLimit", 50);
  },
};
