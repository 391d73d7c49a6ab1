/**
 * The admission-policy phase of isolation-bench.ts: dry-run creates of ConfigMaps that a
 * ValidatingAdmissionPolicy checks with several expensive validations (a uniqueness check,
 * quadratic in the ConfigMap's keys, each close to the 10⁶ cost units one expression may spend),
 * while another client sends small GETs. The policy's expressions run on the event loop; the
 * server gives the loop back between them (packages/server/src/cel/admission/pacer.ts).
 */
import type { AdmissionPhase, Call } from "./isolation-admission.js";

const VAP = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies";
const BINDINGS = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings";
const NS = "iso";
const NAME = "iso-expensive";
const LABEL = "iso-bench";
// Each validation's estimate on 440 keys stays under the 10⁶ per-call limit; eight of them stay under
// the policy's 10⁷ budget.
const KEYS = 440;
const VALIDATIONS = 8;
const json = (v: unknown) => JSON.stringify(v);

/** One quadratic check spelt with other variable names each time, so no two are the same expression. */
const uniqueness = (i: number) => `object.data.all(k${i}, object.data.exists_one(j${i}, j${i} == k${i}))`;

const policy = {
  metadata: { name: NAME },
  spec: {
    failurePolicy: "Fail",
    matchConstraints: {
      resourceRules: [
        { apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["configmaps"] },
      ],
      objectSelector: { matchLabels: { [LABEL]: "expensive" } },
    },
    validations: [
      { expression: "!has(object.data.deny)", message: "probe denied" },
      ...Array.from({ length: VALIDATIONS }, (_, i) => ({
        expression: uniqueness(i),
        message: `check ${i}`,
      })),
    ],
  },
};
const binding = {
  metadata: { name: NAME },
  spec: { policyName: NAME, validationActions: ["Deny"] },
};

const configMap = (name: string, data: Record<string, string>) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, labels: { [LABEL]: "expensive" } },
  data,
});

export async function expensivePolicy(call: Call): Promise<AdmissionPhase> {
  for (const [path, body] of [
    [VAP, policy],
    [BINDINGS, binding],
  ] as const) {
    const code = await call("POST", path, json(body), "application/json");
    if (code !== 201) throw new Error(`creating ${path}: ${code}`);
  }
  const close = async () => {
    await call("DELETE", `${BINDINGS}/${NAME}`);
    await call("DELETE", `${VAP}/${NAME}`);
  };
  const create = (name: string, data: Record<string, string>) =>
    call(
      "POST",
      `/api/v1/namespaces/${NS}/configmaps?dryRun=All`,
      json(configMap(name, data)),
      "application/json",
    );
  // The policy is in force once the probe is refused (a bounded number of probes).
  for (let i = 0; (await create("probe", { deny: "x" })) !== 422; i++) {
    if (i === 200) throw new Error("the policy is not in force");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const data = Object.fromEntries(Array.from({ length: KEYS }, (_, i) => [`k${i}`, "v"]));
  let n = 0;
  return { name: `policy, ${VALIDATIONS}×${KEYS}²`, send: () => create(`p${n++}`, data), close };
}
