/**
 * CRD validation rules (`x-kubernetes-validations`, CEL) on both targets: rules at the root, on a
 * nested field, on list items and map values, a transition rule with oldSelf, messageExpression,
 * reason + fieldPath, a compile error refused when the CRD is written, and ratcheting on update.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import { openWatch } from "../support/watch-client.js";

let t: TestTarget;
let ns: string;
const group = `${uniqueName("cel")}.kubesdk.example`;
const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const crdName = `gadgets.${group}`;
const base = () => `/apis/${group}/v1/namespaces/${ns}/gadgets`;

const specSchema = {
  type: "object",
  "x-kubernetes-validations": [
    { rule: "self.minReplicas <= self.maxReplicas", message: "minReplicas must not exceed maxReplicas" },
    {
      rule: "!has(self.mode) || self.mode != 'locked' || has(self.owner)",
      reason: "FieldValueRequired",
      fieldPath: ".owner",
      message: "a locked gadget needs an owner",
    },
  ],
  properties: {
    minReplicas: { type: "integer" },
    maxReplicas: { type: "integer", "x-kubernetes-validations": [{ rule: "self < 10" }] },
    mode: { type: "string" },
    owner: { type: "string" },
    name: {
      type: "string",
      maxLength: 63,
      "x-kubernetes-validations": [{ rule: "self == oldSelf", message: "name is immutable" }],
    },
    ports: {
      type: "array",
      maxItems: 16,
      items: {
        type: "object",
        properties: { port: { type: "integer" }, name: { type: "string", maxLength: 15 } },
        "x-kubernetes-validations": [
          {
            rule: "self.port > 1024",
            messageExpression: "'port ' + self.name + ' is privileged'",
          },
        ],
      },
    },
    labels: {
      type: "object",
      maxProperties: 8,
      additionalProperties: {
        type: "string",
        maxLength: 63,
        "x-kubernetes-validations": [
          { rule: "self.matches('^[a-z]+$')", message: "lower-case letters only" },
        ],
      },
    },
  },
};

const NOT_CHECKED =
  "Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation";

const NAME_RULE = [{ rule: "self.metadata.name.startsWith('g-')", message: "name must start with g-" }];

const gadgets = (rootRules: object[] = NAME_RULE) => ({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: crdName },
  spec: {
    group,
    scope: "Namespaced",
    names: { plural: "gadgets", singular: "gadget", kind: "Gadget", listKind: "GadgetList" },
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: "object",
            "x-kubernetes-validations": rootRules,
            properties: { spec: specSchema },
          },
        },
      },
    ],
  },
});

const gadget = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: `${group}/v1`,
  kind: "Gadget",
  metadata: { name },
  spec: { minReplicas: 1, maxReplicas: 3, ...spec },
});

type Cause = { field: string; reason: string; message: string };
const causes = (res: { json: { details?: { causes?: Cause[] } } }) =>
  (res.json.details?.causes ?? []).map((c) => [c.field, c.reason, c.message]);

async function established(name: string): Promise<void> {
  const w = await openWatch(t, `${CRDS}?watch=true&fieldSelector=metadata.name%3D${name}`);
  try {
    await w.until((e) =>
      (e.object?.status?.conditions ?? []).some(
        (c: { type: string; status: string }) => c.type === "Established" && c.status === "True",
      ),
    );
  } finally {
    await w.close();
  }
}

beforeAll(async () => {
  t = await startTarget();
  ns = uniqueName("cel");
  expect((await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } })).status).toBe(201);
  const created = await t.call("POST", CRDS, { body: gadgets() });
  expect(created.status, created.text).toBe(201);
  await established(crdName);
});

afterAll(async () => {
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t.call("DELETE", `${CRDS}/${crdName}`);
  await t.close();
});

describe("CRD validation rules (CEL)", () => {
  it("accepts an object every rule holds for", async () => {
    const res = await t.call("POST", base(), {
      body: gadget("g-ok", { ports: [{ port: 8080 }], labels: { team: "blue" }, name: "x" }),
    });
    expect(res.status, res.text).toBe(201);
  });

  it("evaluates a rule at the root with the object's metadata", async () => {
    const res = await t.call("POST", base(), { body: gadget("bad-name", {}) });
    expect(res.status).toBe(422);
    expect(causes(res)).toEqual([["<nil>", "FieldValueInvalid", "Invalid value: name must start with g-"]]);
    expect(res.json.message).toBe(
      `Gadget.${group} "bad-name" is invalid: <nil>: Invalid value: name must start with g-`,
    );
  });

  it("evaluates rules on an object and on a nested field, with the default message", async () => {
    const res = await t.call("POST", base(), {
      body: gadget("g-range", { minReplicas: 12, maxReplicas: 11 }),
    });
    expect(res.status).toBe(422);
    expect(causes(res)).toEqual([
      ["spec", "FieldValueInvalid", "Invalid value: minReplicas must not exceed maxReplicas"],
      ["spec.maxReplicas", "FieldValueInvalid", "Invalid value: 11: failed rule: self < 10"],
    ]);
  });

  it("skips the rules of an object with a schema error, with a cause whose value is null", async () => {
    const res = await t.call("POST", base(), { body: gadget("g-long", { name: "n".repeat(64) }) });
    expect(res.status).toBe(422);
    expect(causes(res)).toEqual([
      ["spec.name", "FieldValueTooLong", "Too long: may not be more than 63 bytes"],
      ["<nil>", "FieldValueInvalid", NOT_CHECKED],
    ]);
  });

  it("evaluates rules on every list item, with a messageExpression", async () => {
    const res = await t.call("POST", base(), {
      body: gadget("g-ports", {
        ports: [
          { name: "web", port: 8080 },
          { name: "http", port: 80 },
          { name: "https", port: 443 },
        ],
      }),
    });
    expect(res.status).toBe(422);
    expect(causes(res)).toEqual([
      ["spec.ports[1]", "FieldValueInvalid", "Invalid value: port http is privileged"],
      ["spec.ports[2]", "FieldValueInvalid", "Invalid value: port https is privileged"],
    ]);
  });

  it("evaluates rules on map values, matching with RE2", async () => {
    const res = await t.call("POST", base(), { body: gadget("g-labels", { labels: { team: "Blue" } }) });
    expect(res.status).toBe(422);
    expect(causes(res)).toEqual([
      ["spec.labels[team]", "FieldValueInvalid", 'Invalid value: "Blue": lower-case letters only'],
    ]);
  });

  it("reports a rule's reason at its fieldPath", async () => {
    const res = await t.call("POST", base(), { body: gadget("g-locked", { mode: "locked" }) });
    expect(res.status).toBe(422);
    expect(causes(res)).toEqual([
      ["spec.owner", "FieldValueRequired", "Required value: a locked gadget needs an owner"],
    ]);
  });

  it("evaluates a transition rule only on update, against the old value", async () => {
    const created = await t.call("POST", base(), { body: gadget("g-immutable", { name: "first" }) });
    expect(created.status, created.text).toBe(201);
    const same = await t.call("PUT", `${base()}/g-immutable`, {
      body: { ...created.json, spec: { ...created.json.spec, maxReplicas: 4 } },
    });
    expect(same.status, same.text).toBe(200);
    const renamed = await t.call("PUT", `${base()}/g-immutable`, {
      body: { ...same.json, spec: { ...same.json.spec, name: "second" } },
    });
    expect(renamed.status).toBe(422);
    expect(causes(renamed)).toEqual([
      ["spec.name", "FieldValueInvalid", 'Invalid value: "second": name is immutable'],
    ]);
  });

  it("refuses a CRD whose rule does not compile, with cel-go's message", async () => {
    const crd = gadgets([{ rule: "self.nope > 1" }]);
    crd.metadata.name = `broken.${group}`;
    crd.spec.names = { plural: "broken", singular: "broken", kind: "Broken", listKind: "BrokenList" };
    const res = await t.call("POST", CRDS, { body: crd });
    expect(res.status).toBe(422);
    expect(causes(res)).toEqual([
      [
        "spec.validation.openAPIV3Schema.x-kubernetes-validations[0].rule",
        "FieldValueInvalid",
        'Invalid value: {"Rule":"self.nope \\u003e 1","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: compilation failed: ERROR: <input>:1:5: undefined field \'nope\'\n | self.nope > 1\n | ....^',
      ],
    ]);
  });

  it("refuses a CRD whose rule is estimated over the cost budget (an unbounded list walked twice)", async () => {
    const crd = gadgets([]);
    crd.metadata.name = `costly.${group}`;
    crd.spec.names = { plural: "costly", singular: "costly", kind: "Costly", listKind: "CostlyList" };
    const root = crd.spec.versions[0]?.schema.openAPIV3Schema as Record<string, unknown>;
    root.properties = {
      spec: {
        type: "object",
        properties: {
          tags: {
            type: "array",
            items: { type: "string" },
            "x-kubernetes-validations": [{ rule: "self.all(x, self.exists(y, x == y))" }],
          },
        },
      },
    };
    const res = await t.call("POST", CRDS, { body: crd });
    expect(res.status).toBe(422);
    const rule =
      "spec.validation.openAPIV3Schema.properties[spec].properties[tags].x-kubernetes-validations[0].rule";
    const hint =
      "exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)";
    expect(causes(res).sort()).toEqual(
      [
        [rule, "FieldValueForbidden", `Forbidden: estimated rule cost ${hint}`],
        [
          rule,
          "FieldValueForbidden",
          "Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema",
        ],
        [
          "spec.validation.openAPIV3Schema",
          "FieldValueForbidden",
          `Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema ${hint}`,
        ],
      ].sort(),
    );
  });

  it("ratchets: an unchanged value that breaks a rule added later is still accepted on update", async () => {
    const created = await t.call("POST", base(), {
      body: gadget("g-ratchet", { mode: "legacy", maxReplicas: 5 }),
    });
    expect(created.status, created.text).toBe(201);
    const crd = (await t.call("GET", `${CRDS}/${crdName}`)).json;
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.mode["x-kubernetes-validations"] =
      [{ rule: "self != 'legacy'", message: "legacy mode is gone" }];
    expect((await t.call("PUT", `${CRDS}/${crdName}`, { body: crd })).status).toBe(200);
    // A new object with the value is refused once the new rule is served (upstream applies it asynchronously).
    let refused = await t.call("POST", base(), { body: gadget("g-new-legacy", { mode: "legacy" }) });
    for (let i = 0; i < 100 && refused.status === 201; i++) {
      await t.call("DELETE", `${base()}/g-new-legacy`);
      await new Promise((r) => setTimeout(r, 50));
      refused = await t.call("POST", base(), { body: gadget("g-new-legacy", { mode: "legacy" }) });
    }
    expect(causes(refused)).toEqual([
      ["spec.mode", "FieldValueInvalid", 'Invalid value: "legacy": legacy mode is gone'],
    ]);
    const current = (await t.call("GET", `${base()}/g-ratchet`)).json;
    const unchanged = await t.call("PUT", `${base()}/g-ratchet`, {
      body: { ...current, spec: { ...current.spec, maxReplicas: 6 } },
    });
    expect(unchanged.status, unchanged.text).toBe(200);
    const changed = await t.call("PUT", `${base()}/g-ratchet`, {
      body: {
        ...unchanged.json,
        spec: { ...unchanged.json.spec, mode: "legacy", owner: "me", maxReplicas: 2, minReplicas: 3 },
      },
    });
    expect(changed.status).toBe(422);
    expect(causes(changed)).toEqual([
      ["spec", "FieldValueInvalid", "Invalid value: minReplicas must not exceed maxReplicas"],
    ]);
  });
});
