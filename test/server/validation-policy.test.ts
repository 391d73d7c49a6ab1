import { afterAll, beforeAll, describe, it } from "vitest";
import { startTarget, type TestTarget } from "../support/target.js";
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
  { name: "minAvailable as a percentage", path: PDB, body: { metadata: meta, spec: { minAvailable: "50%", selector: { matchLabels: { a: "b" } } } }, causes: [] },
  {
    name: "bounds out of range, a selector without values, an unknown eviction policy",
    path: PDB,
    body: {
      metadata: meta,
      spec: { minAvailable: "150%", selector: { matchExpressions: [{ key: "a", operator: "In" }] }, unhealthyPodEvictionPolicy: "X" },
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
    causes: ["spec.maxUnavailable | FieldValueInvalid | Invalid value: -1: must be greater than or equal to 0"],
  },
  { name: "a minAvailable that is no percentage", path: PDB, body: { metadata: meta, spec: { minAvailable: "abc" } }, causes: [`spec.minAvailable | FieldValueInvalid | Invalid value: "abc": ${PERCENT}`] },
];

describe("PodDisruptionBudget spec validation (dryRun=All creates)", () => {
  it.each(ROWS)("$name", async (row) => {
    await checkRow(t, row);
  });

  it("minAvailable and maxUnavailable together are refused at spec, the spec printed as upstream's struct", async () => {
    await checkRow(t, {
      name: "both bounds",
      path: PDB,
      body: { metadata: meta, spec: { minAvailable: 1, maxUnavailable: "10%", selector: { matchLabels: { a: "b" } } } },
      causes: [
        'spec | FieldValueInvalid | Invalid value: {"MinAvailable":1,"Selector":{"matchLabels":{"a":"b"}},"MaxUnavailable":"10%","UnhealthyPodEvictionPolicy":null}: minAvailable and maxUnavailable cannot be both set',
      ],
    });
  });
});
