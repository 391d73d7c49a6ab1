import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import { checkRow, createThenPut, type SpecRow } from "./spec-validation-cases.js";

let t: TestTarget;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(() => t.close());

const PC = "/apis/scheduling.k8s.io/v1/priorityclasses";
const RESERVED =
  "Forbidden: priority class names with 'system-' prefix are reserved for system use only. error:";

const ROWS: SpecRow[] = [
  {
    name: "a user priority up to one billion",
    path: PC,
    body: { metadata: { name: "v" }, value: 1000000000 },
    causes: [],
  },
  {
    name: "a user priority over one billion and an unknown preemption policy",
    path: PC,
    body: { metadata: { name: "v" }, value: 2000000000, preemptionPolicy: "Bad" },
    causes: [
      "value | FieldValueForbidden | Forbidden: maximum allowed value of a user defined priority is 1000000000",
      'preemptionPolicy | FieldValueNotSupported | Unsupported value: "Bad": supported values: "PreemptLowerPriority", "Never"',
    ],
  },
  {
    name: "an unknown system- name",
    path: PC,
    body: { metadata: { name: "system-foo" }, value: 5 },
    causes: [
      `metadata.name | FieldValueForbidden | ${RESERVED} system-foo is not a known system priority class`,
    ],
  },
  {
    name: "a system class with another value",
    path: PC,
    body: { metadata: { name: "system-node-critical" }, value: 5 },
    causes: [
      `metadata.name | FieldValueForbidden | ${RESERVED} value of system-node-critical PriorityClass must be 2000001000`,
    ],
  },
];

describe("PriorityClass spec validation", () => {
  it.each(ROWS)("$name", async (row) => {
    await checkRow(t, row);
  });

  it("the value and the preemption policy never change", async () => {
    const res = await createThenPut(t, PC, { metadata: { name: uniqueName("pc") }, value: 10 }, (pc) => ({
      ...pc,
      value: 11,
      preemptionPolicy: "Never",
    }));
    expect(res.causes).toEqual([
      "value | FieldValueForbidden | Forbidden: may not be changed in an update.",
      'preemptionPolicy | FieldValueInvalid | Invalid value: "Never": field is immutable',
    ]);
  });
});
