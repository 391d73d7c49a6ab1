/**
 * A ValidatingAdmissionPolicy sees the same CEL environment as CRD rules: a two-variable
 * comprehension over a ConfigMap's data in a validation and its messageExpression, and a misused
 * one refused when the policy is written, with cel-go's message (on both targets).
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

const s = useTableSuite("vap-2var");
const api = policyApi(() => s.t, s.deleteAfter);

const PROBE = { expression: "object == null || object.metadata.name != 'probe'", message: "probe refused" };
/** Keys starting with "secret" must hold nothing. */
const VALIDATION = {
  expression: "!has(object.data) || object.data.all(k, v, !k.startsWith('secret') || v == '')",
  messageExpression:
    "'secret keys with values: ' + object.data.transformList(k, v, k.startsWith('secret') && v != '', k).join(', ')",
};

const policyBody = (name: string, ns: string, validations: Json[]): Json => ({
  metadata: { name },
  spec: { failurePolicy: "Fail", matchConstraints: configMapsIn(ns), validations },
});

describe("two-variable comprehensions in admission policies", () => {
  it("validates with all(k, v, …) and explains with transformList", async () => {
    const policy = uniqueName("vap-2var");
    const ns = await api.namespace();
    await api.create("validatingadmissionpolicies", policyBody(policy, ns, [PROBE, VALIDATION]));
    const binding = await bindAndWait(api, policy, ns);
    const bad = await dryRunConfigMap(s.t, ns, { metadata: { name: "bad" }, data: { secretA: "x", b: "y" } });
    expect(bad.status, bad.text).toBe(422);
    expect(bad.json.message).toBe(
      `configmaps "bad" is forbidden: ValidatingAdmissionPolicy '${policy}' with binding '${binding}' denied request: secret keys with values: secretA`,
    );
    const good = await dryRunConfigMap(s.t, ns, {
      metadata: { name: "good" },
      data: { secretA: "", b: "y" },
    });
    expect(good.status, good.text).toBe(201);
  });

  it("refuses a misused two-variable macro when the policy is written", async () => {
    const expression = "object.data.all(k, k, true)";
    const res = await s.t.call("POST", `${ADMISSION}/validatingadmissionpolicies?dryRun=All`, {
      body: policyBody(uniqueName("vap-2var"), "default", [{ expression }]),
    });
    expect(res.status, res.text).toBe(422);
    expect(res.json.details.causes).toEqual([
      {
        reason: "FieldValueInvalid",
        field: "spec.validations[0].expression",
        message: `Invalid value: "${expression}": compilation failed: ERROR: <input>:1:20: duplicate variable name: k\n | ${expression}\n | ...................^`,
      },
    ]);
  });
});
