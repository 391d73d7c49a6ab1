import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import {
  checkRow,
  createThenPut,
  DNS_SUBDOMAIN,
  LABEL_VALUE,
  NAME_PART,
  type SpecRow,
} from "./spec-validation-cases.js";

let t: TestTarget;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(() => t.close());

const G = "rbac.authorization.k8s.io";
const CR = `/apis/${G}/v1/clusterroles`;
const R = `/apis/${G}/v1/namespaces/default/roles`;
const CRB = `/apis/${G}/v1/clusterrolebindings`;
const RB = `/apis/${G}/v1/namespaces/default/rolebindings`;
const ref = { apiGroup: G, kind: "ClusterRole", name: "view" };
const meta = { name: "v" };

const ROWS: SpecRow[] = [
  {
    name: "a rule with verbs, groups and resources",
    path: CR,
    body: { metadata: meta, rules: [{ apiGroups: [""], resources: ["pods"], verbs: ["get"] }] },
    causes: [],
  },
  {
    name: "a rule without verbs or resources",
    path: CR,
    body: { metadata: meta, rules: [{ apiGroups: [""] }] },
    causes: [
      "rules[0].resources | FieldValueRequired | Required value: resource rules must supply at least one resource",
      "rules[0].verbs | FieldValueRequired | Required value",
    ],
  },
  {
    name: "a rule without API groups",
    path: R,
    body: { metadata: meta, rules: [{ resources: ["pods"], verbs: ["get"] }] },
    causes: [
      "rules[0].apiGroups | FieldValueRequired | Required value: resource rules must supply at least one api group",
    ],
  },
  {
    name: "non-resource URLs in a Role",
    path: R,
    body: { metadata: meta, rules: [{ verbs: ["get"], nonResourceURLs: ["/x"] }] },
    causes: [
      'rules[0].nonResourceURLs | FieldValueInvalid | Invalid value: ["/x"]: namespaced rules cannot apply to non-resource URLs',
    ],
  },
  {
    name: "non-resource URLs together with resources, and an empty aggregation rule",
    path: CR,
    body: {
      metadata: meta,
      rules: [{ verbs: ["get"], nonResourceURLs: ["/x"], resources: ["a"] }],
      aggregationRule: { clusterRoleSelectors: [] },
    },
    causes: [
      'rules[0].nonResourceURLs | FieldValueInvalid | Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs',
      "aggregationRule.clusterRoleSelectors | FieldValueRequired | Required value: at least one clusterRoleSelector required if aggregationRule is non-nil",
    ],
  },
  {
    name: "an aggregation rule with invalid selectors",
    path: CR,
    body: {
      metadata: meta,
      aggregationRule: {
        clusterRoleSelectors: [
          {
            matchLabels: { "a b": "c d" },
            matchExpressions: [
              { key: "x", operator: "In" },
              { key: "y", operator: "Exists", values: ["a"] },
              { key: "z", operator: "Bogus" },
            ],
          },
        ],
      },
    },
    causes: [
      `aggregationRule.clusterRoleSelectors[0].matchLabels | FieldValueInvalid | Invalid value: "a b": ${NAME_PART}`,
      `aggregationRule.clusterRoleSelectors[0].matchLabels | FieldValueInvalid | Invalid value: "c d": ${LABEL_VALUE}`,
      "aggregationRule.clusterRoleSelectors[0].matchExpressions[0].values | FieldValueRequired | Required value: must be specified when `operator` is 'In' or 'NotIn'",
      "aggregationRule.clusterRoleSelectors[0].matchExpressions[1].values | FieldValueForbidden | Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      'aggregationRule.clusterRoleSelectors[0].matchExpressions[2].operator | FieldValueInvalid | Invalid value: "Bogus": not a valid selector operator',
      "aggregationRule.clusterRoleSelectors[0] | FieldValueInvalid | Invalid value: null: invalid label selector.",
    ],
  },
  {
    name: "a binding to a ClusterRole with a User subject (API group defaulted)",
    path: RB,
    body: { metadata: meta, roleRef: ref, subjects: [{ kind: "User", name: "u" }] },
    causes: [],
  },
  {
    name: "a role reference without an API group (defaulted)",
    path: CRB,
    body: { metadata: meta, roleRef: { kind: "ClusterRole", name: "view" } },
    causes: [],
  },
  {
    name: "a cluster binding to a Role, with bad subjects",
    path: CRB,
    body: {
      metadata: meta,
      roleRef: { apiGroup: "x", kind: "Role", name: "" },
      subjects: [
        { kind: "ServiceAccount", name: "A_b", apiGroup: "x" },
        { kind: "Foo", name: "" },
        { kind: "User", name: "u", apiGroup: "y" },
      ],
    },
    causes: [
      'roleRef.apiGroup | FieldValueNotSupported | Unsupported value: "x": supported values: "rbac.authorization.k8s.io"',
      'roleRef.kind | FieldValueNotSupported | Unsupported value: "Role": supported values: "ClusterRole"',
      `subjects[0].name | FieldValueInvalid | Invalid value: "A_b": ${DNS_SUBDOMAIN}`,
      'subjects[0].apiGroup | FieldValueNotSupported | Unsupported value: "x": supported values: ""',
      "subjects[0].namespace | FieldValueRequired | Required value",
      'subjects[1].kind | FieldValueNotSupported | Unsupported value: "Foo": supported values: "ServiceAccount", "User", "Group"',
      'subjects[2].apiGroup | FieldValueNotSupported | Unsupported value: "y": supported values: "rbac.authorization.k8s.io"',
      "subjects[1].name | FieldValueRequired | Required value",
      "roleRef.name | FieldValueRequired | Required value",
    ],
  },
  {
    name: "a role reference name that is not a path segment",
    path: RB,
    body: { metadata: meta, roleRef: { ...ref, kind: "Role", name: "a/b" } },
    causes: ["roleRef.name | FieldValueInvalid | Invalid value: \"a/b\": may not contain '/'"],
  },
];

describe("RBAC spec validation (dryRun=All creates)", () => {
  it.each(ROWS)("$name", async (row) => {
    await checkRow(t, row);
  });

  it("the role reference of a binding is immutable", async () => {
    const res = await createThenPut(
      t,
      CRB,
      { metadata: { name: uniqueName("crb") }, roleRef: ref },
      (crb) => ({
        ...crb,
        roleRef: { ...ref, name: "edit" },
      }),
    );
    expect(res.status).toBe(422);
    expect(res.causes).toEqual([
      'roleRef | FieldValueInvalid | Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"ClusterRole","Name":"edit"}: field is immutable',
    ]);
  });

  it("the message lists the declaratively checked errors last", async () => {
    const res = await t.call("POST", `${CR}?dryRun=All`, {
      body: { metadata: meta, rules: [{ apiGroups: [""] }] },
    });
    expect(res.json.message).toBe(
      'ClusterRole.rbac.authorization.k8s.io "v" is invalid: [rules[0].resources: Required value: resource rules must supply at least one resource, rules[0].verbs: Required value]',
    );
  });
});
