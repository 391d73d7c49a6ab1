/** Deployments: one replica, RollingUpdate 25%/25%, ten revisions, a ten-minute progress deadline. */

import { defaultRollingUpdate, defaultTemplate } from "../core/pod-template-defaults.js";
import { child, set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";

export const deployments: KindStrategy = {
  group: "apps",
  resource: "deployments",
  // A status write keeps annotations (the controller writes the revision that way), not labels.
  statusResetsMetadata: ["labels"],
  tracksGeneration: true,
  defaults(obj) {
    const spec = child(obj, "spec");
    set(spec, "replicas", 1);
    defaultRollingUpdate(child(spec, "strategy"), { maxUnavailable: "25%", maxSurge: "25%" });
    set(spec, "revisionHistoryLimit", 10);
    set(spec, "progressDeadlineSeconds", 600);
    defaultTemplate(spec);
  },
};
