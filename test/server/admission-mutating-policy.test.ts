/**
 * MutatingAdmissionPolicy and its bindings on both targets (admissionregistration.k8s.io/v1, GA
 * and on by default in 1.37; packages/server/src/admission/policies/): ApplyConfiguration and
 * JSONPatch mutations, params, reinvocation of IfNeeded policies after a later policy's change,
 * and failures under failurePolicy Fail (upstream's Status, nothing stored) and Ignore. A test
 * waits for its policy by probing with dry-run creates until the policy acts on them.
 */
import { describe, expect, it } from "vitest";
import type { CallResult } from "../support/target.js";
import { uniqueName } from "../support/target.js";
import {
  configMapsIn,
  dryRunConfigMap,
  type Json,
  policyApi,
  probeUntil,
} from "./admission-policy-support.js";
import { useTableSuite } from "./table-read.js";

const s = useTableSuite("map");
const api = policyApi(() => s.t, s.deleteAfter);

const applyConfiguration = (expression: string) => ({
  patchType: "ApplyConfiguration",
  applyConfiguration: { expression },
});
const jsonPatch = (expression: string) => ({ patchType: "JSONPatch", jsonPatch: { expression } });

interface Setup {
  readonly policies: string[];
  readonly bindings: string[];
  readonly ns: string;
}

/** Creates policies (each with one binding) for ConfigMaps in a fresh namespace; waits until `ready` holds for a probe. */
async function inForce(
  specs: Json[],
  ready: (res: CallResult) => boolean,
  bindingSpec: Json = {},
): Promise<Setup> {
  const ns = await api.namespace();
  const setup: Setup = { policies: [], bindings: [], ns };
  for (const spec of specs) {
    const policy = uniqueName("map");
    await api.create("mutatingadmissionpolicies", {
      metadata: { name: policy },
      spec: {
        failurePolicy: "Fail",
        reinvocationPolicy: "Never",
        matchConstraints: configMapsIn(ns),
        ...spec,
      },
    });
    await api.create("mutatingadmissionpolicybindings", {
      metadata: { name: `${policy}-b` },
      spec: { policyName: policy, ...bindingSpec },
    });
    setup.policies.push(policy);
    setup.bindings.push(`${policy}-b`);
  }
  await probeUntil(
    () => dryRunConfigMap(s.t, ns, { metadata: { name: "probe" }, data: { probe: "1" } }),
    ready,
    `policies of ${ns}`,
  );
  return setup;
}

const labelled = (key: string) => (res: CallResult) =>
  res.status === 201 && res.json.metadata?.labels?.[key] !== undefined;

describe("MutatingAdmissionPolicy mutations", () => {
  it("merges an ApplyConfiguration into the object, keeping what the request had", async () => {
    const p = await inForce(
      [
        {
          mutations: [
            applyConfiguration(
              `Object{metadata: Object.metadata{labels: {"mutated": "yes"}}, data: {"added": object.metadata.name}}`,
            ),
          ],
        },
      ],
      labelled("mutated"),
    );
    const res = await s.t.call("POST", `/api/v1/namespaces/${p.ns}/configmaps`, {
      body: { metadata: { name: "merged", labels: { own: "1" } }, data: { kept: "x" } },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.metadata.labels).toEqual({ own: "1", mutated: "yes" });
    expect(res.json.data).toEqual({ kept: "x", added: "merged" });
    const stored = await s.t.call("GET", `/api/v1/namespaces/${p.ns}/configmaps/merged`);
    expect(stored.json.data).toEqual({ kept: "x", added: "merged" });
  });

  it("applies a JSONPatch list in order, with jsonpatch.escapeKey for keys holding a slash", async () => {
    const p = await inForce(
      [
        {
          mutations: [
            jsonPatch(`[
              JSONPatch{op: "add", path: "/metadata/labels", value: {"patched": "yes"}},
              JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("example.com/owner"), value: "team-" + string(size(object.data))},
              JSONPatch{op: "replace", path: "/data/probe", value: "replaced"}
            ]`),
          ],
        },
      ],
      labelled("patched"),
    );
    const res = await dryRunConfigMap(s.t, p.ns, {
      metadata: { name: "patched" },
      data: { probe: "0", other: "1" },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.metadata.labels).toEqual({ patched: "yes", "example.com/owner": "team-2" });
    expect(res.json.data).toEqual({ probe: "replaced", other: "1" });
  });

  it("reads params named by the binding", async () => {
    const name = uniqueName("defaults");
    const param = await s.t.call("POST", `/api/v1/namespaces/${s.ns}/configmaps`, {
      body: { metadata: { name }, data: { team: "blue" } },
    });
    expect(param.status, param.text).toBe(201);
    s.deleteAfter(`/api/v1/namespaces/${s.ns}/configmaps/${name}`);
    const p = await inForce(
      [
        {
          paramKind: { apiVersion: "v1", kind: "ConfigMap" },
          mutations: [
            applyConfiguration(`Object{metadata: Object.metadata{labels: {"team": params.data.team}}}`),
          ],
        },
      ],
      labelled("team"),
      { paramRef: { name, namespace: s.ns, parameterNotFoundAction: "Deny" } },
    );
    const res = await dryRunConfigMap(s.t, p.ns, { metadata: { name: "teamed" } });
    expect(res.json.metadata.labels).toEqual({ team: "blue" });
  });

  it("runs an IfNeeded policy again after a later policy changed the object", async () => {
    // Whichever order the server runs them in, the IfNeeded policy ends up seeing the other's label.
    const p = await inForce(
      [
        {
          reinvocationPolicy: "IfNeeded",
          mutations: [
            applyConfiguration(
              `Object{metadata: Object.metadata{labels: {"seen": has(object.metadata.labels) && "other" in object.metadata.labels ? "other" : "none"}}}`,
            ),
          ],
        },
        { mutations: [applyConfiguration(`Object{metadata: Object.metadata{labels: {"other": "set"}}}`)] },
      ],
      (res) => res.status === 201 && res.json.metadata?.labels?.seen === "other",
    );
    const res = await dryRunConfigMap(s.t, p.ns, { metadata: { name: "twice" } });
    expect(res.json.metadata.labels).toEqual({ seen: "other", other: "set" });
  });

  it("reads an optional's value within the cost limit (sized by the actual value)", async () => {
    const found = `"k" in object.metadata.?labels.orValue({}) ? "yes" : "no"`;
    const p = await inForce(
      [{ mutations: [applyConfiguration(`Object{metadata: Object.metadata{labels: {"has-k": ${found}}}}`)] }],
      labelled("has-k"),
    );
    const withK = await dryRunConfigMap(s.t, p.ns, { metadata: { name: "with-k", labels: { k: "1" } } });
    expect(withK.status, withK.text).toBe(201);
    expect(withK.json.metadata.labels).toEqual({ k: "1", "has-k": "yes" });
    const without = await dryRunConfigMap(s.t, p.ns, { metadata: { name: "without" } });
    expect(without.status, without.text).toBe(201);
    expect(without.json.metadata.labels).toEqual({ "has-k": "no" });
  });
});

describe("MutatingAdmissionPolicy failures", () => {
  const refusal = (p: Setup, name: string, why: string, reason: string) => {
    const message = `policy '${p.policies[0]}' with binding '${p.bindings[0]}' denied request: ${why}`;
    return {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message,
      reason,
      details: { name, kind: "configmaps", causes: [{ message }] },
      code: 403,
    };
  };

  it("refuses the request when a mutation fails to evaluate under failurePolicy Fail, storing nothing", async () => {
    const expression = `Object{data: {"copy": object.data.source}}`;
    const p = await inForce([{ mutations: [applyConfiguration(expression)] }], (res) => res.status === 403);
    const res = await s.t.call("POST", `/api/v1/namespaces/${p.ns}/configmaps`, {
      body: { metadata: { name: "unsourced" }, data: { other: "1" } },
    });
    expect(res.json).toEqual(
      refusal(p, "unsourced", `expression '${expression}' resulted in error: no such key: source`, "Invalid"),
    );
    const get = await s.t.call("GET", `/api/v1/namespaces/${p.ns}/configmaps/unsourced`);
    expect(get.status).toBe(404);
  });

  it("refuses under parameterNotFoundAction Deny when the binding's param is missing", async () => {
    const p = await inForce(
      [
        {
          paramKind: { apiVersion: "v1", kind: "ConfigMap" },
          mutations: [applyConfiguration(`Object{metadata: Object.metadata{labels: {"x": "y"}}}`)],
        },
      ],
      (res) => res.status === 403,
      { paramRef: { name: "absent", namespace: s.ns, parameterNotFoundAction: "Deny" } },
    );
    const res = await dryRunConfigMap(s.t, p.ns, { metadata: { name: "unparamed" } });
    expect(res.json).toEqual(
      refusal(
        p,
        "unparamed",
        "failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
        "Forbidden",
      ),
    );
  });

  it("admits the request unchanged when a mutation fails under failurePolicy Ignore", async () => {
    const p = await inForce(
      [
        {
          failurePolicy: "Ignore",
          mutations: [applyConfiguration(`Object{data: {"copy": object.data.source}}`)],
        },
        { mutations: [applyConfiguration(`Object{metadata: Object.metadata{labels: {"ready": "yes"}}}`)] },
      ],
      labelled("ready"),
    );
    const res = await dryRunConfigMap(s.t, p.ns, { metadata: { name: "ignored" }, data: { other: "1" } });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data).toEqual({ other: "1" });
  });
});

describe("MutatingAdmissionPolicy objects", () => {
  const POLICIES = "/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicies";
  const rules = [{ apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["configmaps"] }];

  it("defaults failurePolicy and the match constraints", async () => {
    const name = uniqueName("map-defaults");
    const res = await s.t.call("POST", POLICIES, {
      body: {
        metadata: { name },
        spec: {
          reinvocationPolicy: "Never",
          matchConstraints: { resourceRules: rules },
          mutations: [applyConfiguration(`Object{metadata: Object.metadata{labels: {"a": "b"}}}`)],
        },
      },
    });
    expect(res.status, res.text).toBe(201);
    s.deleteAfter(`${POLICIES}/${name}`);
    expect(res.json.spec.failurePolicy).toBe("Fail");
    expect(res.json.spec.matchConstraints).toEqual({
      matchPolicy: "Equivalent",
      namespaceSelector: {},
      objectSelector: {},
      resourceRules: [{ ...rules[0], scope: "*" }],
    });
  });

  it("refuses an undefined field, a DELETE rule and a missing reinvocationPolicy, storing nothing", async () => {
    const name = uniqueName("map-bad");
    const res = await s.t.call("POST", POLICIES, {
      body: {
        metadata: { name },
        spec: {
          matchConstraints: { resourceRules: [{ ...rules[0], operations: ["DELETE"] }] },
          mutations: [jsonPatch(`[JSONPatch{op: "add", path: "/data/x", value: request.nmae}]`)],
        },
      },
    });
    expect(res.status, res.text).toBe(422);
    const causes = res.json.details.causes as Json[];
    expect(causes.map((c) => [c.field, c.reason])).toEqual([
      ["spec.matchConstraints.resourceRules.operations", "FieldValueNotSupported"],
      ["spec.mutations[0].jsonPatch.expression", "FieldValueInvalid"],
      ["spec.reinvocationPolicy", "FieldValueRequired"],
    ]);
    expect(causes[0].message).toBe(
      'Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE"',
    );
    expect(causes[1].message).toMatch(
      /^Invalid value: ".*": compilation failed: ERROR: <input>:1:\d+: undefined field 'nmae'\n/,
    );
    const get = await s.t.call("GET", `${POLICIES}/${name}`);
    expect(get.status).toBe(404);
  });
});
