import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget } from "../support/target.js";
import { checkRow, type SpecRow } from "./spec-validation-cases.js";

let t: TestTarget;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(() => t.close());

const L = "/apis/coordination.k8s.io/v1/namespaces/default/leases";

const ROWS: SpecRow[] = [
  {
    name: "a held lease",
    path: L,
    body: {
      metadata: { name: "v" },
      spec: { holderIdentity: "me", leaseDurationSeconds: 15, leaseTransitions: 0 },
    },
    causes: [],
  },
  {
    name: "a zero duration and negative transitions",
    path: L,
    body: { metadata: { name: "v" }, spec: { leaseDurationSeconds: 0, leaseTransitions: -1 } },
    causes: [
      "spec.leaseDurationSeconds | FieldValueInvalid | Invalid value: 0: must be greater than 0",
      "spec.leaseTransitions | FieldValueInvalid | Invalid value: -1: must be greater than or equal to 0",
    ],
  },
];

describe("Lease spec validation", () => {
  it.each(ROWS)("$name", async (row) => {
    await checkRow(t, row);
  });

  it("strategy and preferredHolder are dropped while CoordinatedLeaderElection is off", async () => {
    const res = await t.call("POST", `${L}?dryRun=All`, {
      body: { metadata: { name: "v" }, spec: { strategy: "Bogus", preferredHolder: "x" } },
    });
    expect(res.status).toBe(201);
    expect(res.json.spec).toEqual({});
  });
});
