/**
 * Typed `variables` of admission policies on both targets (packages/server/src/cel/admission/
 * variables.ts): each variable is compiled in order with the types of the ones before it, and the
 * policy's expressions see every variable with the type its expression has — a bool variable is
 * a validation, a reference to an undeclared variable or a type error through a variable is
 * refused when the policy is written, with cel-go's message.
 */
import { describe, expect, it } from "vitest";
import { uniqueName } from "../support/target.js";
import {
  ADMISSION,
  bindAndWait,
  configMapsIn,
  dryRunConfigMap,
  type Json,
  policyApi,
} from "./admission-policy-support.js";
import { useTableSuite } from "./table-read.js";

const s = useTableSuite("vap-vars");
const api = policyApi(() => s.t, s.deleteAfter);

const PROBE = { expression: "object == null || object.metadata.name != 'probe'", message: "probe refused" };

const policyBody = (name: string, spec: Json): Json => ({
  metadata: { name },
  spec: {
    failurePolicy: "Fail",
    matchConstraints: configMapsIn("default"),
    ...spec,
  },
});

/** The field errors of a refused policy create (dry run: nothing is stored either way). */
async function refusal(resource: string, body: Json): Promise<Json[]> {
  const res = await s.t.call("POST", `${ADMISSION}/${resource}?dryRun=All`, { body });
  expect(res.status, res.text).toBe(422);
  return res.json.details.causes;
}

const invalid = (field: string, expression: string, detail: string) => ({
  reason: "FieldValueInvalid",
  field,
  message: `Invalid value: "${expression}": ${detail}`,
});

describe("admission policy variables", () => {
  it("a bool variable is a validation, and a variable may use an earlier one with its type", async () => {
    const policy = uniqueName("vap-vars");
    const ns = await api.namespace();
    await api.create("validatingadmissionpolicies", {
      ...policyBody(policy, {
        matchConstraints: configMapsIn(ns),
        variables: [
          { name: "keys", expression: "has(object.data) ? object.data.size() : 0" },
          { name: "few", expression: "variables.keys < 2" },
        ],
        validations: [
          PROBE,
          { expression: "variables.few", messageExpression: "'keys: ' + string(variables.keys)" },
        ],
      }),
    });
    const binding = await bindAndWait(api, policy, ns);
    const many = await dryRunConfigMap(s.t, ns, { metadata: { name: "many" }, data: { a: "1", b: "2" } });
    expect(many.status, many.text).toBe(422);
    expect(many.json.message).toBe(
      `configmaps "many" is forbidden: ValidatingAdmissionPolicy '${policy}' with binding '${binding}' denied request: keys: 2`,
    );
    const one = await dryRunConfigMap(s.t, ns, { metadata: { name: "one" }, data: { a: "1" } });
    expect(one.status, one.text).toBe(201);
  });

  it("refuses a reference to an undeclared or later variable, and a type error through a variable", async () => {
    const causes = await refusal(
      "validatingadmissionpolicies",
      policyBody(uniqueName("vap-vars"), {
        variables: [
          { name: "early", expression: "variables.label" },
          { name: "label", expression: "'app'" },
        ],
        validations: [
          { expression: "variables.nope" },
          { expression: "variables.label" },
          { expression: "variables.label + 1 == 2" },
          { expression: "true", messageExpression: "variables.label" },
        ],
      }),
    );
    expect(causes).toEqual([
      invalid(
        "spec.variables[0].expression",
        "variables.label",
        "compilation failed: ERROR: <input>:1:10: undefined field 'label'\n | variables.label\n | .........^",
      ),
      invalid(
        "spec.validations[0].expression",
        "variables.nope",
        "compilation failed: ERROR: <input>:1:10: undefined field 'nope'\n | variables.nope\n | .........^",
      ),
      invalid("spec.validations[1].expression", "variables.label", "must evaluate to bool but got string"),
      invalid(
        "spec.validations[2].expression",
        "variables.label + 1 == 2",
        "compilation failed: ERROR: <input>:1:17: found no matching overload for '_+_' applied to '(string, int)'\n | variables.label + 1 == 2\n | ................^",
      ),
    ]);
  });

  it("refuses `variables` in a policy that declares none", async () => {
    const causes = await refusal(
      "validatingadmissionpolicies",
      policyBody(uniqueName("vap-vars"), { validations: [{ expression: "variables.any" }] }),
    );
    expect(causes).toEqual([
      invalid(
        "spec.validations[0].expression",
        "variables.any",
        "compilation failed: ERROR: <input>:1:1: undeclared reference to 'variables' (in container '')\n | variables.any\n | ^",
      ),
    ]);
  });

  it("types a mutating policy's variables for its mutations", async () => {
    const causes = await refusal(
      "mutatingadmissionpolicies",
      policyBody(uniqueName("map-vars"), {
        reinvocationPolicy: "Never",
        variables: [{ name: "count", expression: "1" }],
        mutations: [
          {
            patchType: "JSONPatch",
            jsonPatch: { expression: "variables.count + 'x'" },
          },
        ],
      }),
    );
    expect(causes).toEqual([
      invalid(
        "spec.mutations[0].jsonPatch.expression",
        "variables.count + 'x'",
        "compilation failed: ERROR: <input>:1:17: found no matching overload for '_+_' applied to '(int, string)'\n | variables.count + 'x'\n | ................^",
      ),
    ]);
  });
});
