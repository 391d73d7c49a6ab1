/**
 * Issue 31: a pod's affinity (node affinity, pod affinity and anti-affinity terms) and topology
 * spread constraints, sent with dryRun=All and answered as kube-apiserver 1.37 answers them. The
 * broader comparison is `pnpm diff:server` (scripts/differential/specs/pod-scheduling-bodies.ts).
 */
import { describe, expect, it } from "vitest";
import { pod, podValidationSuite } from "./pod-validation-suite.js";
import { DNS_LABEL, DNS_SUBDOMAIN, LABEL_VALUE, NAME_PART } from "./spec-validation-cases.js";

const { itAnswers, target, podPath } = podValidationSuite("val-podaff");

const required = (nodeSelectorTerms: unknown[]) => ({
  nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms } },
});
const term = (extra: Record<string, unknown> = {}) => ({ topologyKey: "kubernetes.io/hostname", ...extra });
const REQ = "nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
/** [what, affinity, causes under spec.affinity]. */
const AFFINITIES: [string, Record<string, unknown>, string[]][] = [
  [
    "a valid affinity",
    {
      ...required([
        {
          matchExpressions: [
            { key: "zone", operator: "In", values: ["a", "b"] },
            { key: "gpu", operator: "Exists" },
            { key: "cores", operator: "Gt", values: ["4"] },
          ],
          matchFields: [{ key: "metadata.name", operator: "NotIn", values: ["node-1"] }],
        },
      ]),
      podAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: 100,
            podAffinityTerm: term({ labelSelector: { matchLabels: { app: "x" } }, namespaces: ["ns-1"] }),
          },
        ],
      },
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [term({ namespaceSelector: {} })],
      },
    },
    [],
  ],
  [
    "no node selector terms",
    required([]),
    [`${REQ} | FieldValueRequired | Required value: must have at least one node selector term`],
  ],
  [
    "bad node selector requirements",
    required([
      {
        matchExpressions: [
          { key: "zone", operator: "In" },
          { key: "gpu", operator: "Exists", values: ["x"] },
          { key: "cores", operator: "Lt", values: ["1", "2"] },
          { key: "a b", operator: "Near" },
        ],
      },
    ]),
    [
      `${REQ}[0].matchExpressions[0].values | FieldValueRequired | Required value: must be specified when \`operator\` is 'In' or 'NotIn'`,
      `${REQ}[0].matchExpressions[1].values | FieldValueForbidden | Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`,
      `${REQ}[0].matchExpressions[2].values | FieldValueRequired | Required value: must be specified single value when \`operator\` is 'Lt' or 'Gt'`,
      `${REQ}[0].matchExpressions[3].operator | FieldValueInvalid | Invalid value: "Near": not a valid selector operator`,
      `${REQ}[0].matchExpressions[3].key | FieldValueInvalid | Invalid value: "a b": ${NAME_PART}`,
    ],
  ],
  [
    "bad node field requirements",
    required([
      {
        matchFields: [
          { key: "metadata.name", operator: "In", values: ["a", "b"] },
          { key: "metadata.labels", operator: "Exists" },
          { key: "metadata.name", operator: "In", values: ["Node_1"] },
        ],
      },
    ]),
    [
      `${REQ}[0].matchFields[0].values | FieldValueRequired | Required value: must be only one value when \`operator\` is 'In' or 'NotIn' for node field selector`,
      `${REQ}[0].matchFields[1].operator | FieldValueInvalid | Invalid value: "Exists": not a valid selector operator`,
      `${REQ}[0].matchFields[1].key | FieldValueInvalid | Invalid value: "metadata.labels": not a valid field selector key`,
      `${REQ}[0].matchFields[2].values[0] | FieldValueInvalid | Invalid value: "Node_1": ${DNS_SUBDOMAIN}`,
    ],
  ],
  [
    "preference weights out of range",
    {
      nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, preference: {} }] },
      podAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 101, podAffinityTerm: term() }],
      },
    },
    [
      "nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight | FieldValueInvalid | Invalid value: 0: must be in the range 1-100",
      "podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight | FieldValueInvalid | Invalid value: 101: must be in the range 1-100",
    ],
  ],
  [
    "bad pod affinity terms",
    {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          {
            topologyKey: "",
            namespaces: ["Bad_NS"],
            labelSelector: { matchExpressions: [{ key: "app", operator: "In" }] },
          },
          term({ topologyKey: "a b" }),
        ],
      },
    },
    [
      "podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].values | FieldValueRequired | Required value: must be specified when `operator` is 'In' or 'NotIn'",
      `podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].namespace | FieldValueInvalid | Invalid value: "Bad_NS": ${DNS_LABEL}`,
      "podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey | FieldValueRequired | Required value: can not be empty",
      'podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey | FieldValueInvalid | Invalid value: "": name part must be non-empty',
      `podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey | FieldValueInvalid | Invalid value: "": ${NAME_PART}`,
      `podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[1].topologyKey | FieldValueInvalid | Invalid value: "a b": ${NAME_PART}`,
    ],
  ],
];

describe("affinity", () => {
  for (const [what, affinity, causes] of AFFINITIES)
    itAnswers(`a pod with ${what}`, pod({ affinity }), causes, "spec.affinity");
});

const spread = (extra: Record<string, unknown> = {}) => ({
  maxSkew: 1,
  topologyKey: "zone",
  whenUnsatisfiable: "DoNotSchedule",
  labelSelector: { matchLabels: { app: "x" } },
  ...extra,
});
/** [what, constraints, causes under spec.topologySpreadConstraints]. */
const SPREADS: [string, unknown[], string[]][] = [
  [
    "valid topology spread constraints",
    [
      spread({ minDomains: 2, nodeAffinityPolicy: "Honor", nodeTaintsPolicy: "Ignore" }),
      spread({ whenUnsatisfiable: "ScheduleAnyway" }),
    ],
    [],
  ],
  [
    "a zero skew, no key and an unknown action",
    [spread({ maxSkew: 0, topologyKey: "", whenUnsatisfiable: "Never" })],
    [
      "[0].maxSkew | FieldValueInvalid | Invalid value: 0: must be greater than zero",
      "[0].topologyKey | FieldValueRequired | Required value: can not be empty",
      '[0].whenUnsatisfiable | FieldValueNotSupported | Unsupported value: "Never": supported values: "DoNotSchedule", "ScheduleAnyway"',
    ],
  ],
  [
    "a repeated key and action",
    [spread(), spread({ maxSkew: 2 })],
    ['[0].{topologyKey, whenUnsatisfiable} | FieldValueDuplicate | Duplicate value: "{zone, DoNotSchedule}"'],
  ],
  [
    "bad minDomains",
    [spread({ minDomains: 0 }), spread({ minDomains: 3, whenUnsatisfiable: "ScheduleAnyway" })],
    [
      "[0].minDomains | FieldValueInvalid | Invalid value: 0: must be greater than zero",
      "[1].minDomains | FieldValueInvalid | Invalid value: 3: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway",
    ],
  ],
  [
    "unknown node inclusion policies and a bad selector",
    [
      spread({
        nodeAffinityPolicy: "Always",
        nodeTaintsPolicy: "",
        labelSelector: { matchLabels: { app: "a b" } },
      }),
    ],
    [
      '[0].nodeAffinityPolicy | FieldValueNotSupported | Unsupported value: "Always": supported values: "Honor", "Ignore"',
      '[0].nodeTaintsPolicy | FieldValueNotSupported | Unsupported value: "": supported values: "Honor", "Ignore"',
      `[0].labelSelector.matchLabels | FieldValueInvalid | Invalid value: "a b": ${LABEL_VALUE}`,
    ],
  ],
];

describe("topology spread constraints", () => {
  for (const [what, topologySpreadConstraints, causes] of SPREADS)
    itAnswers(
      `a pod with ${what}`,
      pod({ topologySpreadConstraints }),
      causes,
      "spec.topologySpreadConstraints",
    );
});

/** A pod with these labels and spec fields (matchLabelKeys take their values from the labels). */
const labelled = (labels: Record<string, string>, spec: Record<string, unknown>) => ({
  ...pod(spec),
  metadata: { name: "p", labels },
});
const REQUIRED = "affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution";
const podTerm = (extra: Record<string, unknown>) => ({
  affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term(extra)] } },
});
const byApp = { matchLabels: { app: "x" } };
/** [what, labels, spec fields, causes under spec]. */
const LABEL_KEYS: [string, Record<string, string>, Record<string, unknown>, string[]][] = [
  [
    "valid matchLabelKeys and mismatchLabelKeys",
    { version: "v1", tier: "web" },
    {
      ...podTerm({ labelSelector: byApp, matchLabelKeys: ["version"], mismatchLabelKeys: ["tier"] }),
      topologySpreadConstraints: [spread({ matchLabelKeys: ["version", "absent"] })],
    },
    [],
  ],
  [
    "label keys without a label selector",
    {},
    {
      ...podTerm({ matchLabelKeys: ["a"], mismatchLabelKeys: ["b"] }),
      topologySpreadConstraints: [spread({ labelSelector: undefined, matchLabelKeys: ["a"] })],
    },
    [
      `${REQUIRED}[0].matchLabelKeys | FieldValueForbidden | Forbidden: must not be specified when labelSelector is not set`,
      `${REQUIRED}[0].mismatchLabelKeys | FieldValueForbidden | Forbidden: must not be specified when labelSelector is not set`,
      "topologySpreadConstraints[0].matchLabelKeys | FieldValueForbidden | Forbidden: must not be specified when labelSelector is not set",
    ],
  ],
  [
    "label keys that are no label names",
    {},
    {
      ...podTerm({ labelSelector: byApp, mismatchLabelKeys: ["ok", "a b"] }),
      topologySpreadConstraints: [spread({ matchLabelKeys: ["-x"] })],
    },
    [
      `${REQUIRED}[0].mismatchLabelKeys[1] | FieldValueInvalid | Invalid value: "a b": ${NAME_PART}`,
      `topologySpreadConstraints[0].matchLabelKeys[0] | FieldValueInvalid | Invalid value: "-x": ${NAME_PART}`,
    ],
  ],
  [
    "a key both matched and mismatched (not a label of the pod)",
    {},
    podTerm({ labelSelector: byApp, matchLabelKeys: ["k"], mismatchLabelKeys: ["k"] }),
    [
      `${REQUIRED}[0].matchLabelKeys[0] | FieldValueInvalid | Invalid value: "k": exists in both matchLabelKeys and mismatchLabelKeys`,
    ],
  ],
  [
    "a key both matched and mismatched (a label of the pod)",
    { k: "v" },
    podTerm({ labelSelector: byApp, matchLabelKeys: ["k"], mismatchLabelKeys: ["k"] }),
    [
      `${REQUIRED}[0][0] | FieldValueInvalid | Invalid value: "k": exists in both matchLabelKeys and labelSelector`,
      `${REQUIRED}[0].matchLabelKeys[0] | FieldValueInvalid | Invalid value: "k": exists in both matchLabelKeys and mismatchLabelKeys`,
    ],
  ],
  [
    "a matchLabelKeys key the selector has (not a label of the pod)",
    {},
    {
      ...podTerm({ labelSelector: byApp, matchLabelKeys: ["app"] }),
      topologySpreadConstraints: [spread({ matchLabelKeys: ["app"] })],
    },
    [],
  ],
  [
    "a matchLabelKeys key the selector has (a label of the pod)",
    { app: "x" },
    {
      ...podTerm({ labelSelector: byApp, matchLabelKeys: ["other", "app"] }),
      topologySpreadConstraints: [spread({ matchLabelKeys: ["app"] })],
    },
    [
      `${REQUIRED}[0][1] | FieldValueInvalid | Invalid value: "app": exists in both matchLabelKeys and labelSelector`,
      'topologySpreadConstraints[0][0] | FieldValueInvalid | Invalid value: "app": exists in both matchLabelKeys and labelSelector',
    ],
  ],
];

describe("matchLabelKeys and mismatchLabelKeys", () => {
  for (const [what, labels, spec, causes] of LABEL_KEYS)
    itAnswers(`a pod with ${what}`, labelled(labels, spec), causes, "spec");

  it("merges the pod's values of the keys into the label selectors of a new pod", async () => {
    const body = labelled(
      { version: "v1", tier: "web" },
      {
        ...podTerm({
          labelSelector: byApp,
          matchLabelKeys: ["version", "absent"],
          mismatchLabelKeys: ["tier"],
        }),
        topologySpreadConstraints: [spread({ matchLabelKeys: ["version"] })],
      },
    );
    const res = await target().call("POST", `${podPath()}?dryRun=All`, { body });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    const spec = res.json.spec;
    expect(spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector).toEqual(
      {
        matchLabels: { app: "x" },
        matchExpressions: [
          { key: "version", operator: "In", values: ["v1"] },
          { key: "tier", operator: "NotIn", values: ["web"] },
        ],
      },
    );
    expect(spec.topologySpreadConstraints[0].labelSelector).toEqual({
      matchLabels: { app: "x" },
      matchExpressions: [{ key: "version", operator: "In", values: ["v1"] }],
    });
  });
});
