/** CronJobs: concurrent runs allowed, three successful and one failed job kept. */
import { child, set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";

export const cronjobs: KindStrategy = {
  group: "batch",
  resource: "cronjobs",
  tracksGeneration: true,
  defaults(obj) {
    const spec = child(obj, "spec");
    set(spec, "concurrencyPolicy", "Allow");
    set(spec, "suspend", false);
    set(spec, "successfulJobsHistoryLimit", 3);
    set(spec, "failedJobsHistoryLimit", 1);
  },
};
