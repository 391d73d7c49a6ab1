/**
 * Core events: stored in the bucket events.k8s.io shares (one object, two APIs) with the values Go
 * writes for unset fields; validated as upstream validates core events; eleven field labels.
 */
import { coreEventsStorage } from "../events/event-conversion.js";
import { validateCoreEvent } from "../events/event-validation.js";
import type { KindStrategy } from "../strategy.js";

export const events: KindStrategy = {
  group: "",
  resource: "events",
  storage: { bucket: "/events", convert: coreEventsStorage },
  fieldLabels: [
    "involvedObject.kind",
    "involvedObject.namespace",
    "involvedObject.name",
    "involvedObject.uid",
    "involvedObject.apiVersion",
    "involvedObject.resourceVersion",
    "involvedObject.fieldPath",
    "reason",
    "reportingComponent",
    "source",
    "type",
  ],
  // A core event's `source` label is its component.
  fieldLabelPaths: { source: "source.component" },
  validate: validateCoreEvent,
};
