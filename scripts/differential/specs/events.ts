/** Spec cases for events: core v1 Events and events.k8s.io/v1 Events. */
import type { Fixtures } from "../kinds.js";
import { type Random, type SpecGroup, type SpecVariant, word } from "./types.js";

const TIME = "2024-01-01T00:00:00.000000Z";

function coreEvents(rnd: Random, fx: Fixtures): SpecVariant[] {
  const w = () => word(rnd);
  const involved = { kind: "Pod", name: w(), namespace: fx.ns };
  const reported = {
    involvedObject: involved,
    eventTime: TIME,
    reportingComponent: `example.com/${w()}`,
    reportingInstance: w(),
    action: "Act",
    reason: "Why",
  };
  return [
    ["valid", { involvedObject: involved, reason: "R", message: "m", type: "Normal" }],
    ["namespace-mismatch", { involvedObject: { ...involved, namespace: "other" } }],
    ["no-involved-namespace", { involvedObject: { kind: "Pod", name: w() } }],
    ["reported-valid", reported],
    ["reported-no-component", { ...reported, reportingComponent: "" }],
    ["reported-bad-component", { ...reported, reportingComponent: "a b" }],
    ["reported-no-instance", { ...reported, reportingInstance: "" }],
    ["reported-no-action", { ...reported, action: "" }],
    ["reported-long-reason", { ...reported, reason: "r".repeat(129) }],
    ["reported-long-message", { ...reported, message: "m".repeat(1025) }],
    ["type-any", { involvedObject: involved, type: w() }],
  ];
}

function apiEvents(rnd: Random, fx: Fixtures): SpecVariant[] {
  const w = () => word(rnd);
  const base = {
    regarding: { kind: "Pod", name: w(), namespace: fx.ns },
    eventTime: TIME,
    reportingController: `example.com/${w()}`,
    reportingInstance: w(),
    action: "Act",
    reason: "Why",
    type: "Normal",
  };
  return [
    ["valid", base],
    ["no-event-time", { ...base, eventTime: null }],
    ["type-bad", { ...base, type: w() }],
    ["type-warning", { ...base, type: "Warning" }],
    ["no-controller", { ...base, reportingController: "" }],
    ["no-instance", { ...base, reportingInstance: "" }],
    ["no-action", { ...base, action: "" }],
    ["long-note", { ...base, note: "n".repeat(1025) }],
    ["series-valid", { ...base, series: { count: 2, lastObservedTime: TIME } }],
    ["series-bad", { ...base, series: { count: 1 } }],
    ["deprecated-count", { ...base, deprecatedCount: 3 }],
    ["deprecated-source", { ...base, deprecatedSource: { component: w() } }],
    ["regarding-namespace-mismatch", { ...base, regarding: { kind: "Pod", name: "p", namespace: "other" } }],
  ];
}

export const events: SpecGroup = {
  name: "events",
  kinds: [
    { id: "core/events", variants: coreEvents },
    { id: "events.k8s.io/events", variants: apiEvents },
  ],
};
