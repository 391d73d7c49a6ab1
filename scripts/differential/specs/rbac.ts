/** Spec cases for rbac.authorization.k8s.io: rules, aggregation rules, role references, subjects. */
import { type Random, type SpecGroup, type SpecVariant, selectorVariants, word } from "./types.js";

const G = "rbac.authorization.k8s.io";

function ruleVariants(rnd: Random, namespaced: boolean): SpecVariant[] {
  const w = () => word(rnd);
  const out: SpecVariant[] = [
    ["rule-valid", { rules: [{ apiGroups: [""], resources: [w()], verbs: ["get", "list"] }] }],
    ["rule-no-verbs", { rules: [{ apiGroups: [""], resources: [w()] }] }],
    ["rule-no-groups", { rules: [{ resources: [w()], verbs: ["get"] }] }],
    ["rule-no-resources", { rules: [{ apiGroups: [w()], verbs: ["get"] }] }],
    ["rule-empty", { rules: [{}] }],
    ["rule-urls", { rules: [{ nonResourceURLs: [`/${w()}`], verbs: ["get"] }] }],
    ["rule-urls-and-resources", { rules: [{ nonResourceURLs: ["/x"], resources: [w()], verbs: ["get"] }] }],
    [
      "rule-resource-names",
      { rules: [{ apiGroups: [""], resources: ["configmaps"], resourceNames: [w()], verbs: ["*"] }] },
    ],
    ["rules-two-bad", { rules: [{ verbs: ["get"] }, { apiGroups: [""], resources: [w()] }] }],
    ["rules-none", {}],
  ];
  if (!namespaced)
    for (const [v, sel] of selectorVariants(rnd))
      out.push([`aggregation-${v}`, { aggregationRule: { clusterRoleSelectors: [sel] } }]);
  if (!namespaced) out.push(["aggregation-empty", { aggregationRule: { clusterRoleSelectors: [] } }]);
  if (!namespaced) out.push(["aggregation-null-selectors", { aggregationRule: {} }]);
  return out;
}

function bindingVariants(rnd: Random, namespaced: boolean): SpecVariant[] {
  const w = () => word(rnd);
  const ref = { apiGroup: G, kind: "ClusterRole", name: w() };
  const sa = { kind: "ServiceAccount", name: w(), namespace: "default" };
  return [
    ["valid", { roleRef: ref, subjects: [sa] }],
    ["no-subjects", { roleRef: ref }],
    ["ref-role-kind", { roleRef: { ...ref, kind: "Role" } }],
    ["ref-bad-kind", { roleRef: { ...ref, kind: "Deployment" } }],
    ["ref-bad-group", { roleRef: { ...ref, apiGroup: "apps" } }],
    ["ref-empty-group", { roleRef: { ...ref, apiGroup: "" } }],
    ["ref-no-name", { roleRef: { ...ref, name: "" } }],
    ["ref-name-slash", { roleRef: { ...ref, name: `${w()}/${w()}` } }],
    ["ref-name-colon", { roleRef: { ...ref, name: `system:${w()}` } }],
    ["ref-missing", {}],
    ["subject-user", { roleRef: ref, subjects: [{ kind: "User", name: `${w()}@example.com` }] }],
    ["subject-user-group-set", { roleRef: ref, subjects: [{ kind: "User", name: w(), apiGroup: G }] }],
    ["subject-user-bad-group", { roleRef: ref, subjects: [{ kind: "User", name: w(), apiGroup: "x" }] }],
    ["subject-group", { roleRef: ref, subjects: [{ kind: "Group", name: `system:${w()}` }] }],
    ["subject-sa-no-namespace", { roleRef: ref, subjects: [{ kind: "ServiceAccount", name: w() }] }],
    ["subject-sa-bad-name", { roleRef: ref, subjects: [{ ...sa, name: `${w()}_X` }] }],
    ["subject-sa-group", { roleRef: ref, subjects: [{ ...sa, apiGroup: G }] }],
    ["subject-bad-kind", { roleRef: ref, subjects: [{ kind: "Robot", name: w() }] }],
    ["subject-no-name", { roleRef: ref, subjects: [{ kind: "User", name: "" }] }],
    ["subject-no-kind", { roleRef: ref, subjects: [{ name: w() }] }],
    [
      "subjects-several-bad",
      { roleRef: { ...ref, name: "" }, subjects: [{ kind: "X" }, { kind: "ServiceAccount" }] },
    ],
    ...(namespaced
      ? []
      : ([
          [
            "ref-kind-and-sa",
            { roleRef: { ...ref, kind: "Role" }, subjects: [{ kind: "ServiceAccount", name: w() }] },
          ],
        ] as SpecVariant[])),
  ];
}

export const rbac: SpecGroup = {
  name: "rbac",
  kinds: [
    { id: `${G}/roles`, variants: (rnd) => ruleVariants(rnd, true) },
    { id: `${G}/clusterroles`, variants: (rnd) => ruleVariants(rnd, false) },
    { id: `${G}/rolebindings`, variants: (rnd) => bindingVariants(rnd, true) },
    { id: `${G}/clusterrolebindings`, variants: (rnd) => bindingVariants(rnd, false) },
  ],
};
