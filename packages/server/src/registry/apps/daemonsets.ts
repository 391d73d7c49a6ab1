/** DaemonSets: RollingUpdate one node at a time, ten revisions. */

import { defaultRollingUpdate, defaultTemplate } from "../core/pod-template-defaults.js";
import { child, set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";

export const daemonsets: KindStrategy = {
  group: "apps",
  resource: "daemonsets",
  tracksGeneration: true,
  defaults(obj) {
    const spec = child(obj, "spec");
    defaultRollingUpdate(child(spec, "updateStrategy"), { maxUnavailable: 1, maxSurge: 0 });
    set(spec, "revisionHistoryLimit", 10);
    defaultTemplate(spec);
  },
};
