/**
 * Issue 31: a pod's affinity (node affinity, pod affinity and anti-affinity terms) and topology
 * spread constraints, sent with dryRun=All and answered as kube-apiserver 1.37 answers them. The
 * broader comparison is `pnpm diff:server` (scripts/differential/specs/pod-scheduling-bodies.ts).
 */
import { describe } from "vitest";
import { pod, podValidationSuite } from "./pod-validation-suite.js";
import { DNS_LABEL, DNS_SUBDOMAIN, LABEL_VALUE, NAME_PART } from "./spec-validation-cases.js";

const { itAnswers } = podValidationSuite("val-podaff");

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
