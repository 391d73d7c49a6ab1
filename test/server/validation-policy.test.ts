import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import { checkRow, type SpecRow } from "./spec-validation-cases.js";

let t: TestTarget;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(() => t.close());

const PDB = "/apis/policy/v1/namespaces/default/poddisruptionbudgets";
const meta = { name: "v" };
const PERCENT =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

const ROWS: SpecRow[] = [
  {
    name: "minAvailable as a percentage",
    path: PDB,
    body: { metadata: meta, spec: { minAvailable: "50%", selector: { matchLabels: { a: "b" } } } },
    causes: [],
  },
  {
    name: "bounds out of range, a selector without values, an unknown eviction policy",
    path: PDB,
    body: {
      metadata: meta,
      spec: {
        minAvailable: "150%",
        selector: { matchExpressions: [{ key: "a", operator: "In" }] },
        unhealthyPodEvictionPolicy: "X",
      },
    },
    causes: [
      'spec.minAvailable | FieldValueInvalid | Invalid value: "150%": must not be greater than 100%',
      "spec.selector.matchExpressions[0].values | FieldValueRequired | Required value: must be specified when `operator` is 'In' or 'NotIn'",
      'spec.unhealthyPodEvictionPolicy | FieldValueNotSupported | Unsupported value: "X": supported values: "AlwaysAllow", "IfHealthyBudget"',
    ],
  },
  {
    name: "a negative maxUnavailable",
    path: PDB,
    body: { metadata: meta, spec: { maxUnavailable: -1 } },
    causes: [
      "spec.maxUnavailable | FieldValueInvalid | Invalid value: -1: must be greater than or equal to 0",
    ],
  },
  {
    name: "a minAvailable that is no percentage",
    path: PDB,
    body: { metadata: meta, spec: { minAvailable: "abc" } },
    causes: [`spec.minAvailable | FieldValueInvalid | Invalid value: "abc": ${PERCENT}`],
  },
];

describe("PodDisruptionBudget spec validation (dryRun=All creates)", () => {
  it.each(ROWS)("$name", async (row) => {
    await checkRow(t, row);
  });

  it("minAvailable and maxUnavailable together are refused at spec, the spec printed as upstream's struct", async () => {
    await checkRow(t, {
      name: "both bounds",
      path: PDB,
      body: {
        metadata: meta,
        spec: { minAvailable: 1, maxUnavailable: "10%", selector: { matchLabels: { a: "b" } } },
      },
      causes: [
        'spec | FieldValueInvalid | Invalid value: {"MinAvailable":1,"Selector":{"matchLabels":{"a":"b"}},"MaxUnavailable":"10%","UnhealthyPodEvictionPolicy":null}: minAvailable and maxUnavailable cannot be both set',
      ],
    });
  });

  it("a /status write is held to the status rules: conditions and non-negative counters", async () => {
    const name = uniqueName("pdb");
    expect(
      (await t.call("POST", PDB, { body: { metadata: { name }, spec: { minAvailable: 1 } } })).status,
    ).toBe(201);
    const res = await t.call("PATCH", `${PDB}/${name}/status`, {
      rawBody: JSON.stringify({
        status: {
          disruptionsAllowed: -1,
          conditions: [
            { type: "X", status: "Maybe", reason: "R", lastTransitionTime: "2024-01-01T00:00:00Z" },
            { type: "X" },
          ],
        },
      }),
      contentType: "application/merge-patch+json",
    });
    await t.call("DELETE", `${PDB}/${name}`);
    expect(res.status).toBe(422);
    expect(
      res.json.details.causes.map((c: { field: string; reason: string }) => `${c.field} ${c.reason}`),
    ).toEqual([
      "status.conditions[0].status FieldValueNotSupported",
      "status.conditions[1] FieldValueDuplicate",
      "status.conditions[1].status FieldValueRequired",
      "status.conditions[1].lastTransitionTime FieldValueRequired",
      "status.conditions[1].reason FieldValueRequired",
      "status.disruptionsAllowed FieldValueInvalid",
    ]);
  });
});
