/**
 * events.k8s.io events: the same objects as core events, converted to and from the core shape
 * they are stored in; field labels named by this API's own fields (no `source`).
 */
import type { KindStrategy } from "../strategy.js";
import { eventsConversion } from "./event-conversion.js";
import { validateEventsApiEvent } from "./event-validation.js";

export const events: KindStrategy = {
  group: "events.k8s.io",
  resource: "events",
  storage: { bucket: "/events", convert: eventsConversion },
  fieldLabels: [
    "regarding.kind",
    "regarding.namespace",
    "regarding.name",
    "regarding.uid",
    "regarding.apiVersion",
    "regarding.resourceVersion",
    "regarding.fieldPath",
    "reason",
    "reportingController",
    "type",
  ],
  validate: validateEventsApiEvent,
};
