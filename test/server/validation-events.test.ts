import { afterAll, beforeAll, describe, it } from "vitest";
import { startTarget, type TestTarget } from "../support/target.js";
import { checkRow, NAME_PART, type SpecRow } from "./spec-validation-cases.js";

let t: TestTarget;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(() => t.close());

const CORE = "/api/v1/namespaces/default/events";
const API = "/apis/events.k8s.io/v1/namespaces/default/events";
const TIME = "2024-01-01T00:00:00.000000Z";
const regarding = { kind: "Pod", name: "p", namespace: "default" };
const apiEvent = {
  metadata: { name: "v" },
  regarding,
  eventTime: TIME,
  reportingController: "example.com/c",
  reportingInstance: "i",
  action: "A",
  reason: "R",
  type: "Normal",
};

const ROWS: SpecRow[] = [
  {
    name: "core: an event about a pod in its namespace",
    path: CORE,
    body: { metadata: { name: "v" }, involvedObject: regarding, reason: "R" },
    causes: [],
  },
  {
    name: "core: an involved object in another namespace",
    path: CORE,
    body: { metadata: { name: "v" }, involvedObject: { ...regarding, namespace: "other" } },
    causes: [
      'involvedObject.namespace | FieldValueInvalid | Invalid value: "other": does not match event.namespace',
    ],
  },
  {
    name: "core: an event time without reporter, instance and action",
    path: CORE,
    body: { metadata: { name: "v" }, involvedObject: regarding, eventTime: TIME, reason: "R" },
    causes: [
      "reportingComponent | FieldValueRequired | Required value",
      'reportingComponent | FieldValueInvalid | Invalid value: "": name part must be non-empty',
      `reportingComponent | FieldValueInvalid | Invalid value: "": ${NAME_PART}`,
      "reportingInstance | FieldValueRequired | Required value",
      "action | FieldValueRequired | Required value",
    ],
  },
  { name: "events.k8s.io: a complete event", path: API, body: apiEvent, causes: [] },
  {
    name: "events.k8s.io: an unknown type and a short series",
    path: API,
    body: { ...apiEvent, type: "Odd", series: { count: 1, lastObservedTime: TIME } },
    causes: [
      'series.count | FieldValueInvalid | Invalid value: "": should be at least 2',
      'type | FieldValueInvalid | Invalid value: "": has invalid value: Odd',
    ],
  },
];

describe("event spec validation (dryRun=All creates)", () => {
  it.each(ROWS)("$name", async (row) => {
    await checkRow(t, row);
  });
});
