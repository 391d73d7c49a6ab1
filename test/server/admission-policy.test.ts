/**
 * ValidatingAdmissionPolicy and its bindings on both targets (packages/server/src/admission/
 * policies/): denials with upstream's Status (message, messageExpression, reason, the expression
 * itself), Warn and Audit actions, params by name and selector with parameterNotFoundAction,
 * matchConditions, variables, failurePolicy on evaluation errors, the runtime cost limit, and
 * binding matchResources. Every policy first refuses a ConfigMap named "probe", by which a test
 * waits until the policy is in force (kube-apiserver loads policies through an informer).
 */
import { describe, expect, it } from "vitest";
import { type CallResult, uniqueName } from "../support/target.js";
import {
  configMapsIn,
  dryRunConfigMap,
  type Json,
  policyApi,
  probeUntil,
  warningsOf,
} from "./admission-policy-support.js";
import { useTableSuite } from "./table-read.js";

const s = useTableSuite("vap");
const api = policyApi(() => s.t, s.deleteAfter);

const PROBE = { expression: "object == null || object.metadata.name != 'probe'", message: "probe refused" };

interface Setup {
  readonly policy: string;
  readonly binding: string;
  /** The namespace the policy is scoped to, the test's own. */
  readonly ns: string;
}

/** Creates a policy and a binding for ConfigMaps in the suite's namespace; waits until the probe is answered. */
async function inForce(
  spec: Json,
  bindingSpec: Json = {},
  extraBindings: Json[] = [],
  constraints: (ns: string) => Json = configMapsIn,
  inEffect?: (res: CallResult) => boolean,
): Promise<Setup> {
  const policy = uniqueName("vap");
  const binding = `${policy}-b`;
  const ns = await api.namespace();
  await api.create("validatingadmissionpolicies", {
    metadata: { name: policy },
    spec: {
      failurePolicy: "Fail",
      matchConstraints: constraints(ns),
      ...spec,
      validations: [PROBE, ...(spec.validations ?? [])],
    },
  });
  await api.create("validatingadmissionpolicybindings", {
    metadata: { name: binding },
    spec: { policyName: policy, validationActions: ["Deny"], ...bindingSpec },
  });
  for (const [i, extra] of extraBindings.entries())
    await api.create("validatingadmissionpolicybindings", {
      metadata: { name: `${binding}${i + 2}` },
      spec: { policyName: policy, ...extra },
    });
  const actions: string[] = bindingSpec.validationActions ?? ["Deny"];
  await probeUntil(
    () => dryRunConfigMap(s.t, ns, { metadata: { name: "probe" } }),
    inEffect ??
      ((res) =>
        actions.includes("Deny") ? res.status !== 201 : warningsOf(res).some((w) => w.includes(policy))),
    `policy ${policy}`,
  );
  return { policy, binding, ns };
}

const denied = (p: Setup, name: string, message: string, reason = "Invalid", code = 422) => {
  const full = `ValidatingAdmissionPolicy '${p.policy}' with binding '${p.binding}' denied request: ${message}`;
  return {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message: `configmaps "${name}" is forbidden: ${full}`,
    reason,
    details: { name, kind: "configmaps", causes: [{ message: full }] },
    code,
  };
};

describe("ValidatingAdmissionPolicy denials", () => {
  it("refuses a create with the validation's message and reason Invalid (422), storing nothing", async () => {
    const p = await inForce({
      validations: [
        { expression: "!has(object.data) || !('secret' in object.data)", message: "no secret key" },
      ],
    });
    const res = await s.t.call("POST", `/api/v1/namespaces/${p.ns}/configmaps`, {
      body: { metadata: { name: "holds-secret" }, data: { secret: "x" } },
    });
    expect(res.json).toEqual(denied(p, "holds-secret", "no secret key"));
    expect(res.status).toBe(422);
    const get = await s.t.call("GET", `/api/v1/namespaces/${p.ns}/configmaps/holds-secret`);
    expect(get.status).toBe(404);
    const ok = await dryRunConfigMap(s.t, p.ns, { metadata: { name: "clean" }, data: { a: "1" } });
    expect(ok.status, ok.text).toBe(201);
  });

  it("uses messageExpression and a Forbidden reason (403); without any message the expression is quoted", async () => {
    const p = await inForce({
      validations: [
        {
          expression: "object.data.size() < 3",
          messageExpression: "'too many keys: ' + string(object.data.size())",
          reason: "Forbidden",
        },
        { expression: "!('x' in object.data)" },
      ],
    });
    const many = await dryRunConfigMap(s.t, p.ns, {
      metadata: { name: "many" },
      data: { a: "1", b: "2", c: "3" },
    });
    expect(many.json).toEqual(denied(p, "many", "too many keys: 3", "Forbidden", 403));
    const x = await dryRunConfigMap(s.t, p.ns, { metadata: { name: "has-x" }, data: { x: "1" } });
    expect(x.json).toEqual(denied(p, "has-x", "failed expression: !('x' in object.data)"));
  });

  it("names a generateName create by the name generated for it", async () => {
    const p = await inForce({ validations: [{ expression: "false", message: "never" }] });
    const res = await dryRunConfigMap(s.t, p.ns, { metadata: { generateName: "gen-" } });
    expect(res.json.details?.name).toMatch(/^gen-[a-z0-9]{5}$/);
    expect(res.json).toEqual(denied(p, res.json.details.name, "never"));
  });

  it("checks updates with oldObject and request.operation", async () => {
    const p = await inForce({
      validations: [
        {
          expression: "request.operation != 'UPDATE' || object.data.v >= oldObject.data.v",
          message: "v may not decrease",
        },
      ],
    });
    const created = await s.t.call("POST", `/api/v1/namespaces/${p.ns}/configmaps`, {
      body: { metadata: { name: "versioned" }, data: { v: "5" } },
    });
    expect(created.status, created.text).toBe(201);
    const down = await s.t.call("PUT", `/api/v1/namespaces/${p.ns}/configmaps/versioned`, {
      body: { ...created.json, data: { v: "4" } },
    });
    expect(down.json).toEqual(denied(p, "versioned", "v may not decrease"));
    const up = await s.t.call("PUT", `/api/v1/namespaces/${p.ns}/configmaps/versioned`, {
      body: { ...created.json, data: { v: "6" } },
    });
    expect(up.status, up.text).toBe(200);
  });
});

describe("ValidatingAdmissionPolicy validationActions", () => {
  it("Warn admits the request and reports the failure in the Warning header", async () => {
    const p = await inForce(
      { validations: [{ expression: "!('w' in object.data)", message: "w is discouraged" }] },
      { validationActions: ["Warn"] },
    );
    const res = await dryRunConfigMap(s.t, p.ns, { metadata: { name: "warned" }, data: { w: "1" } });
    expect(res.status, res.text).toBe(201);
    expect(warningsOf(res)).toEqual([
      `Validation failed for ValidatingAdmissionPolicy '${p.policy}' with binding '${p.binding}': w is discouraged`,
    ]);
  });

  it("a Warn binding's warning comes back with the refusal of a Deny binding", async () => {
    const p = await inForce(
      { validations: [{ expression: "!('w' in object.data)", message: "w is not allowed" }] },
      {},
      [{ validationActions: ["Warn"] }],
    );
    const res = await dryRunConfigMap(s.t, p.ns, { metadata: { name: "both" }, data: { w: "1" } });
    expect(res.json).toEqual(denied(p, "both", "w is not allowed"));
    expect(warningsOf(res)).toEqual([
      `Validation failed for ValidatingAdmissionPolicy '${p.policy}' with binding '${p.binding}2': w is not allowed`,
    ]);
  });

  it("Audit alone admits the request without a warning", async () => {
    const p = await inForce(
      { validations: [{ expression: "!('a' in object.data)", message: "audited" }] },
      {},
      [{ validationActions: ["Audit"] }],
    );
    // The Deny binding refuses the probe; a second, Audit-only binding is what the object meets.
    const res = await dryRunConfigMap(s.t, p.ns, { metadata: { name: "audited" }, data: { b: "1" } });
    expect(res.status, res.text).toBe(201);
    expect(warningsOf(res)).toEqual([]);
    expect(p.policy).toBeTruthy();
  });
});

describe("ValidatingAdmissionPolicy params", () => {
  const paramKind = { apiVersion: "v1", kind: "ConfigMap" };
  const limit = {
    expression: "object.data.size() <= int(params.data.max)",
    messageExpression: "'at most ' + params.data.max",
  };

  async function paramMap(name: string, max: string, labels: Record<string, string> = {}): Promise<void> {
    const res = await s.t.call("POST", `/api/v1/namespaces/${s.ns}/configmaps`, {
      body: { metadata: { name, labels }, data: { max } },
    });
    expect(res.status, res.text).toBe(201);
    s.deleteAfter(`/api/v1/namespaces/${s.ns}/configmaps/${name}`);
  }

  it("denies by the param's value, and under parameterNotFoundAction Deny when the param is missing", async () => {
    const name = uniqueName("limits");
    await paramMap(name, "1");
    const p = await inForce(
      { paramKind, validations: [limit] },
      { paramRef: { name, namespace: s.ns, parameterNotFoundAction: "Deny" } },
    );
    const two = await dryRunConfigMap(s.t, p.ns, {
      metadata: { name: "two-keys" },
      data: { a: "1", b: "2" },
    });
    expect(two.json).toEqual(denied(p, "two-keys", "at most 1"));
    const missing = await inForce(
      { paramKind, validations: [limit] },
      { paramRef: { name: "absent", parameterNotFoundAction: "Deny" } },
    );
    const res = await dryRunConfigMap(s.t, missing.ns, { metadata: { name: "any" } });
    expect(res.json).toEqual(
      denied(
        missing,
        "any",
        "failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
      ),
    );
  });

  it("skips a binding whose param is missing under parameterNotFoundAction Allow, and evaluates once per selected param", async () => {
    const low = uniqueName("sel");
    await paramMap(low, "5", { tier: low });
    await paramMap(`${low}-2`, "1", { tier: low });
    const p = await inForce(
      { paramKind, validations: [limit] },
      {
        paramRef: {
          selector: { matchLabels: { tier: low } },
          namespace: s.ns,
          parameterNotFoundAction: "Allow",
        },
      },
      [{ validationActions: ["Deny"], paramRef: { name: "absent", parameterNotFoundAction: "Allow" } }],
    );
    // Two params: the one with max 1 refuses two keys; the binding without its param lets it pass.
    const two = await dryRunConfigMap(s.t, p.ns, { metadata: { name: "two" }, data: { a: "1", b: "2" } });
    expect(two.json).toEqual(denied(p, "two", "at most 1"));
    const one = await dryRunConfigMap(s.t, p.ns, { metadata: { name: "one" }, data: { a: "1" } });
    expect(one.status, one.text).toBe(201);
  });
});

describe("ValidatingAdmissionPolicy matchConditions, variables and failurePolicy", () => {
  it("applies only where every matchCondition holds", async () => {
    const p = await inForce({
      matchConditions: [
        {
          name: "not-exempt",
          expression: "!has(object.metadata.labels) || !('exempt' in object.metadata.labels)",
        },
      ],
      validations: [{ expression: "false", message: "refused" }],
    });
    const exempt = await dryRunConfigMap(s.t, p.ns, { metadata: { name: "free", labels: { exempt: "y" } } });
    expect(exempt.status, exempt.text).toBe(201);
    const other = await dryRunConfigMap(s.t, p.ns, { metadata: { name: "bound" } });
    expect(other.json).toEqual(denied(p, "bound", "refused"));
  });

  it("evaluates variables and reports an evaluation error under failurePolicy Fail", async () => {
    const p = await inForce({
      variables: [
        { name: "keys", expression: "has(object.data) ? object.data.size() : 0" },
        { name: "mode", expression: "object.data.mode" },
      ],
      validations: [
        { expression: "variables.keys < 2", messageExpression: "'keys: ' + string(variables.keys)" },
        { expression: "!has(object.data) || !('strict' in object.data) || variables.mode == 'on'" },
      ],
    });
    const many = await dryRunConfigMap(s.t, p.ns, { metadata: { name: "many" }, data: { a: "1", b: "2" } });
    expect(many.json).toEqual(denied(p, "many", "keys: 2"));
    const err = await dryRunConfigMap(s.t, p.ns, { metadata: { name: "strict" }, data: { strict: "1" } });
    expect(err.json).toEqual(
      denied(
        p,
        "strict",
        `expression '!has(object.data) || !('strict' in object.data) || variables.mode == 'on'' resulted in error: composited variable "mode" fails to evaluate: no such key: mode`,
      ),
    );
  });

  it("ignores an evaluation error under failurePolicy Ignore", async () => {
    const p = await inForce({
      failurePolicy: "Ignore",
      validations: [{ expression: "object.data.missing == 'x'" }],
    });
    const res = await dryRunConfigMap(s.t, p.ns, { metadata: { name: "no-data" }, data: { a: "1" } });
    expect(res.status, res.text).toBe(201);
  });

  it("cancels an expression over the per-call cost limit and refuses the request, promptly for others", async () => {
    const expr = "object.data.all(a, object.data.all(b, object.data.all(c, a != '')))";
    const p = await inForce({ validations: [{ expression: expr }] });
    const data = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, "v"]));
    const [res, other] = await Promise.all([
      dryRunConfigMap(s.t, p.ns, { metadata: { name: "costly" }, data }),
      s.t.call("GET", `/api/v1/namespaces/${p.ns}`),
    ]);
    expect(other.status).toBe(200);
    expect(res.json).toEqual(
      denied(
        p,
        "costly",
        `expression '${expr}' resulted in error: operation cancelled: actual cost limit exceeded`,
      ),
    );
  });
});

describe("ValidatingAdmissionPolicyBinding matchResources", () => {
  it("narrows the policy to the objects the binding selects", async () => {
    const p = await inForce(
      { validations: [{ expression: "false", message: "labelled only" }] },
      {
        matchResources: {
          objectSelector: { matchExpressions: [{ key: "app", operator: "NotIn", values: ["free"] }] },
        },
      },
    );
    const free = await dryRunConfigMap(s.t, p.ns, { metadata: { name: "f", labels: { app: "free" } } });
    expect(free.status, free.text).toBe(201);
    const held = await dryRunConfigMap(s.t, p.ns, { metadata: { name: "h", labels: { app: "held" } } });
    expect(held.json).toEqual(denied(p, "h", "labelled only"));
  });
});

describe("ValidatingAdmissionPolicy objects", () => {
  const policyBody = (name: string, validations: Json[]) => ({
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingAdmissionPolicy",
    metadata: { name },
    spec: {
      matchConstraints: {
        resourceRules: [
          { apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["configmaps"] },
        ],
      },
      validations,
    },
  });
  const POLICIES = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies";

  it("defaults failurePolicy, matchPolicy, selectors and rule scope", async () => {
    const name = uniqueName("vap-defaults");
    const res = await s.t.call("POST", POLICIES, { body: policyBody(name, [{ expression: "true" }]) });
    expect(res.status, res.text).toBe(201);
    s.deleteAfter(`${POLICIES}/${name}`);
    expect(res.json.spec.failurePolicy).toBe("Fail");
    expect(res.json.spec.matchConstraints).toEqual({
      matchPolicy: "Equivalent",
      namespaceSelector: {},
      objectSelector: {},
      resourceRules: [
        {
          apiGroups: [""],
          apiVersions: ["v1"],
          operations: ["CREATE"],
          resources: ["configmaps"],
          scope: "*",
        },
      ],
    });
  });

  it("refuses an expression that does not compile or has the wrong type, with cel-go's message, storing nothing", async () => {
    const name = uniqueName("vap-bad");
    const res = await s.t.call("POST", POLICIES, {
      body: policyBody(name, [
        { expression: "request.nmae == 'x'" },
        { expression: "'not a bool'" },
        { expression: "true", messageExpression: "1" },
      ]),
    });
    expect(res.status, res.text).toBe(422);
    expect(res.json.details.causes).toEqual([
      {
        reason: "FieldValueInvalid",
        field: "spec.validations[0].expression",
        message: `Invalid value: "request.nmae == 'x'": compilation failed: ERROR: <input>:1:8: undefined field 'nmae'\n | request.nmae == 'x'\n | .......^`,
      },
      {
        reason: "FieldValueInvalid",
        field: "spec.validations[1].expression",
        message: `Invalid value: "'not a bool'": must evaluate to bool but got string`,
      },
      {
        reason: "FieldValueInvalid",
        field: "spec.validations[2].messageExpression",
        message: `Invalid value: "1": must evaluate to string but got int`,
      },
    ]);
    const get = await s.t.call("GET", `${POLICIES}/${name}`);
    expect(get.status).toBe(404);
  });

  it("refuses a binding with both Deny and Warn, or without actions", async () => {
    const BINDINGS = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings";
    const both = await s.t.call("POST", BINDINGS, {
      body: {
        metadata: { name: uniqueName("vapb") },
        spec: { policyName: "p", validationActions: ["Deny", "Warn"] },
      },
    });
    expect(both.status, both.text).toBe(422);
    expect(both.json.details.causes).toEqual([
      {
        reason: "FieldValueInvalid",
        field: "spec.validationActions",
        message:
          'Invalid value: ["Deny","Warn"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
      },
    ]);
    const none = await s.t.call("POST", BINDINGS, {
      body: { metadata: { name: uniqueName("vapb") }, spec: { policyName: "p", validationActions: [] } },
    });
    expect(none.status, none.text).toBe(422);
    expect(none.json.details.causes).toEqual([
      { reason: "FieldValueRequired", field: "spec.validationActions", message: "Required value" },
    ]);
  });
});

describe("ValidatingAdmissionPolicy variables of the request", () => {
  it("sees the namespace object, the authorizer and the request on a DELETE, with oldObject", async () => {
    const p = await inForce(
      {
        validations: [
          {
            expression:
              "namespaceObject.metadata.labels['kubernetes.io/metadata.name'] == request.namespace && authorizer.group('').resource('configmaps').namespace(request.namespace).check('delete').allowed() && authorizer.requestResource.check('create').allowed()",
            message: "variables of the request",
          },
          {
            expression: "request.operation != 'DELETE' || oldObject.metadata.name != 'kept'",
            message: "kept stays",
          },
        ],
      },
      {},
      [],
      (ns) => configMapsIn(ns, ["CREATE", "DELETE"]),
    );
    const kept = await s.t.call("POST", `/api/v1/namespaces/${p.ns}/configmaps`, {
      body: { metadata: { name: "kept" } },
    });
    expect(kept.status, kept.text).toBe(201);
    const del = await s.t.call("DELETE", `/api/v1/namespaces/${p.ns}/configmaps/kept`);
    expect(del.json).toEqual(denied(p, "kept", "kept stays"));
    const get = await s.t.call("GET", `/api/v1/namespaces/${p.ns}/configmaps/kept`);
    expect(get.status).toBe(200);
  });

  it("refuses when an audit annotation fails to evaluate, even for a Warn binding", async () => {
    const p = await inForce(
      {
        validations: [],
        auditAnnotations: [{ key: "source", valueExpression: "string(object.data.source)" }],
      },
      { validationActions: ["Warn"] },
      [],
      configMapsIn,
      (res) => res.status !== 201,
    );
    const res = await dryRunConfigMap(s.t, p.ns, { metadata: { name: "unannotated" }, data: { other: "1" } });
    expect(res.json).toEqual(
      denied(
        p,
        "unannotated",
        "expression 'string(object.data.source)' resulted in error: no such key: source",
      ),
    );
  });
});
