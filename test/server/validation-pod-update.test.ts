/**
 * Issue 31: a Pod update's tolerations (existing ones may change only their tolerationSeconds) and a
 * gated pod's node selector and node affinity (they may only grow), answered as kube-apiserver 1.37
 * answers them.
 */
import { describe, expect, it } from "vitest";
import { pod, podValidationSuite } from "./pod-validation-suite.js";
import { createThenPut, NAME_PART } from "./spec-validation-cases.js";

const { target, podPath } = podValidationSuite("val-podupd");

const toleration = { key: "k", operator: "Exists", effect: "NoExecute", tolerationSeconds: 10 };
/**
 * Tolerates every taint: kube-apiserver's DefaultTolerationSeconds admission then adds no
 * not-ready / unreachable tolerations of its own (the reference server has none, docs/divergences.md
 * FC2), so both servers store the same list.
 */
const ALL = { operator: "Exists" };
const MODIFIED =
  "spec.tolerations | FieldValueForbidden | Forbidden: existing toleration can not be modified except its tolerationSeconds";

/** [what, the tolerations of the update, the causes]; the pod was created with [toleration, ALL]. */
const UPDATES: [string, unknown[], string[]][] = [
  [
    "a changed tolerationSeconds and an added toleration",
    [{ ...toleration, tolerationSeconds: 5 }, ALL, { key: "x", operator: "Exists" }],
    [],
  ],
  ["a toleration without its tolerationSeconds", [{ ...toleration, tolerationSeconds: undefined }, ALL], []],
  ["a removed toleration", [ALL], [MODIFIED]],
  [
    "a changed effect",
    [{ ...toleration, effect: "NoSchedule", tolerationSeconds: undefined }, ALL],
    [MODIFIED],
  ],
  [
    "an added toleration that is invalid",
    [toleration, ALL, { key: "a b", operator: "Exists" }],
    [
      // Checked by the pod spec rules and again by the update's own: one cause on both servers.
      `spec.tolerations[2].key | FieldValueInvalid | Invalid value: "a b": ${NAME_PART}`,
    ],
  ],
];

describe("toleration updates", () => {
  for (const [what, tolerations, causes] of UPDATES)
    it(`answers an update with ${what} as kube-apiserver does`, async () => {
      const res = await createThenPut(
        target(),
        podPath(),
        pod({ tolerations: [toleration, ALL] }),
        (created) => ({
          ...created,
          spec: { ...(created.spec as object), tolerations },
        }),
      );
      expect(res.status, res.message).toBe(causes.length === 0 ? 200 : 422);
      expect(res.causes.sort()).toEqual([...causes].sort());
    });
});

const gates = [{ name: "example.com/gate" }];
const zone = (values: string[]) => ({ key: "zone", operator: "In", values });
const requiredTerms = (nodeSelectorTerms: unknown[]) => ({
  nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms } },
});
const TERMS = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
const ONLY_ADDITIONS = "only additions are allowed (no mutations or deletions)";
const FORBIDDEN_SPEC =
  "spec | FieldValueForbidden | Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

/** [what, the created pod's spec fields, the update's spec fields, the causes (first lines)]. */
const GATED: [string, Record<string, unknown>, Record<string, unknown>, string[]][] = [
  [
    "an added node selector entry of a gated pod",
    { schedulingGates: gates, nodeSelector: { a: "1" } },
    { nodeSelector: { a: "1", b: "2" } },
    [],
  ],
  [
    "a changed node selector entry of a gated pod",
    { schedulingGates: gates, nodeSelector: { a: "1", b: "2" } },
    { nodeSelector: { a: "2", b: "2" } },
    [
      'spec.nodeSelector | FieldValueInvalid | Invalid value: {"a":"2","b":"2"}: only additions to spec.nodeSelector are allowed (no mutations or deletions)',
    ],
  ],
  [
    "a changed node selector of a pod without gates",
    { nodeSelector: { a: "1" } },
    { nodeSelector: { a: "1", b: "2" } },
    [FORBIDDEN_SPEC],
  ],
  [
    "a node affinity given to a gated pod",
    { schedulingGates: gates },
    { affinity: requiredTerms([{ matchExpressions: [zone(["a"])] }]) },
    [],
  ],
  [
    "an added requirement of a gated pod's node affinity",
    { schedulingGates: gates, affinity: requiredTerms([{ matchExpressions: [zone(["a"])] }]) },
    { affinity: requiredTerms([{ matchExpressions: [zone(["a"]), { key: "gpu", operator: "Exists" }] }]) },
    [],
  ],
  [
    "a changed requirement of a gated pod's node affinity",
    { schedulingGates: gates, affinity: requiredTerms([{ matchExpressions: [zone(["a"])] }]) },
    { affinity: requiredTerms([{ matchExpressions: [zone(["b"])] }]) },
    [
      `${TERMS}[0] | FieldValueInvalid | Invalid value: {"MatchExpressions":[{"Key":"zone","Operator":"In","Values":["b"]}],"MatchFields":null}: ${ONLY_ADDITIONS}`,
    ],
  ],
  [
    "an added term of a gated pod's node affinity",
    { schedulingGates: gates, affinity: requiredTerms([{ matchExpressions: [zone(["a"])] }]) },
    { affinity: requiredTerms([{ matchExpressions: [zone(["a"])] }, { matchFields: [] }]) },
    [
      `${TERMS} | FieldValueInvalid | Invalid value: [{"MatchExpressions":[{"Key":"zone","Operator":"In","Values":["a"]}],"MatchFields":null},{"MatchExpressions":null,"MatchFields":[]}]: no additions/deletions to non-empty NodeSelectorTerms list are allowed`,
    ],
  ],
];

describe("updates of pods with scheduling gates", () => {
  for (const [what, created, update, causes] of GATED)
    it(`answers an update with ${what} as kube-apiserver does`, async () => {
      const res = await createThenPut(target(), podPath(), pod({ tolerations: [ALL], ...created }), (c) => ({
        ...c,
        spec: { ...(c.spec as object), ...update },
      }));
      expect(res.status, res.message).toBe(causes.length === 0 ? 200 : 422);
      expect(res.causes.map((m) => m.split("\n")[0]).sort()).toEqual([...causes].sort());
    });
});
