/**
 * status.typeChecking of ValidatingAdmissionPolicies (src/cel/admission/type-check.ts and
 * src/controllers/policy-status-controller.ts). kube-controller-manager writes it, not
 * kube-apiserver, so the contract suites cannot compare it with the real server (divergence VAP7):
 * these tests pin the reference server's own behaviour.
 */
import { describe, expect, it } from "vitest";
import { typeCheckValidatingPolicy } from "../src/cel/admission/index.js";
import { PolicyStatusController } from "../src/controllers/policy-status-controller.js";
import type { HandlerContext } from "../src/endpoints/handlers/context.js";
import { MvccStore, type StoreEvent } from "../src/storage/mvcc.js";

const BUCKET = "admissionregistration.k8s.io/validatingadmissionpolicies";

const policy = (validations: unknown[], generation = 1) => ({
  apiVersion: "admissionregistration.k8s.io/v1",
  kind: "ValidatingAdmissionPolicy",
  metadata: { name: "typed", generation },
  spec: {
    matchConstraints: {
      resourceRules: [
        { apiGroups: ["apps"], apiVersions: ["v1"], resources: ["deployments"], operations: ["CREATE"] },
        {
          apiGroups: [""],
          apiVersions: ["v1"],
          resources: ["configmaps", "pods/status"],
          operations: ["CREATE"],
        },
        { apiGroups: ["*"], apiVersions: ["*"], resources: ["*"], operations: ["CREATE"] },
      ],
    },
    validations,
  },
});

describe("ValidatingAdmissionPolicy type checking", () => {
  it("reports each expression's errors per kind the rules name exactly, in cel-go's words", async () => {
    const warnings = await typeCheckValidatingPolicy(
      policy([
        { expression: "object.spec.replicas > 1" },
        { expression: "object.metadata.name != ''", messageExpression: "object.spec.replicaz" },
      ]),
    );
    expect(warnings).toEqual([
      {
        fieldRef: "spec.validations[0].expression",
        warning:
          "/v1, Kind=ConfigMap: ERROR: <input>:1:7: undefined field 'spec'\n | object.spec.replicas > 1\n | ......^\n",
      },
      {
        fieldRef: "spec.validations[1].messageExpression",
        warning:
          "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replicaz'\n | object.spec.replicaz\n | ...........^\n\n" +
          "/v1, Kind=ConfigMap: ERROR: <input>:1:7: undefined field 'spec'\n | object.spec.replicaz\n | ......^\n",
      },
    ]);
  });

  it("types the variables by the kind too, so their types reach the expressions", async () => {
    const typed = policy([{ expression: "variables.replicas == 'three'" }, { expression: "variables.nope" }]);
    typed.spec.matchConstraints.resourceRules.splice(1);
    Object.assign(typed.spec, { variables: [{ name: "replicas", expression: "object.spec.replicas" }] });
    const warnings = await typeCheckValidatingPolicy(typed);
    expect(warnings).toEqual([
      {
        fieldRef: "spec.validations[0].expression",
        warning:
          "apps/v1, Kind=Deployment: ERROR: <input>:1:20: found no matching overload for '_==_' applied to '(int, string)'\n | variables.replicas == 'three'\n | ...................^\n",
      },
      {
        fieldRef: "spec.validations[1].expression",
        warning:
          "apps/v1, Kind=Deployment: ERROR: <input>:1:10: undefined field 'nope'\n | variables.nope\n | .........^\n",
      },
    ]);
  });

  it("is written to status by the controller for each new generation", async () => {
    const store = new MvccStore();
    const written = new Promise<StoreEvent>((resolve) => {
      store.subscribe((e) => {
        if (
          e.bucket === BUCKET &&
          (e.object.status as { observedGeneration?: number } | undefined)?.observedGeneration
        )
          resolve(e);
      });
    });
    store.create(BUCKET, "typed", policy([{ expression: "object.data.size() < 3" }]));
    const controller = new PolicyStatusController({ store } as unknown as HandlerContext);
    try {
      const e = await written;
      expect(e.object.status).toEqual({
        observedGeneration: 1,
        typeChecking: {
          expressionWarnings: [
            {
              fieldRef: "spec.validations[0].expression",
              warning:
                "apps/v1, Kind=Deployment: ERROR: <input>:1:7: undefined field 'data'\n | object.data.size() < 3\n | ......^\n",
            },
          ],
        },
      });
    } finally {
      controller.close();
    }
  });
});
