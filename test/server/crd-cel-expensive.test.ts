/**
 * Expensive CRD validation rules (CEL) on both targets: rules whose cost on the object is far above
 * what the reference server evaluates in one turn of its event loop (it runs them on a worker
 * thread, packages/server/src/cel/rules-pool.ts) give the same answers as cheap ones — success, the
 * rule's message and messageExpression (two rules failing with one message listed twice), a
 * transition rule against oldSelf, a messageExpression over the per-call limit — and concurrent
 * updates of one object that each wait for such rules all land.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import { openWatch } from "../support/watch-client.js";

let t: TestTarget;
let ns: string;
const group = `${uniqueName("celx")}.kubesdk.example`;
const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const crdName = `uniques.${group}`;
const base = () => `/apis/${group}/v1/namespaces/${ns}/uniques`;

// Quadratic in the list: with 300 items each rule costs some 10⁵ units, far over what one turn runs.
const ITEMS = 300;
// Quadratic in the tags and never stopping early: over the per-call limit with 1000 tags.
const COSTLY_MESSAGE = "self.tags.all(t, self.tags.all(u, u != '-')) ? 'checked ' + self.name : 'unchecked'";
const specSchema = {
  type: "object",
  "x-kubernetes-validations": [
    { rule: "self.items.all(x, self.items.exists_one(y, y == x))", message: "items must be unique" },
    {
      rule: "self.items.all(x, !x.startsWith('bad-'))",
      messageExpression: "'bad items after ' + self.items[0]",
    },
    {
      rule: "oldSelf.items.all(x, self.items.exists(y, y == x))",
      message: "items may not be removed",
    },
    // Two rules with one message: both causes are listed, the message says it once.
    { rule: "self.items.size() != 1", message: "one item is not enough" },
    { rule: "!self.items.exists(x, x == 'solo')", message: "one item is not enough" },
  ],
  properties: {
    items: { type: "array", maxItems: 500, items: { type: "string", maxLength: 8 } },
    notes: { type: "object", maxProperties: 16, additionalProperties: { type: "string", maxLength: 8 } },
    groups: {
      type: "array",
      maxItems: 4,
      items: {
        type: "object",
        "x-kubernetes-validations": [{ rule: "self.name != 'x'", messageExpression: COSTLY_MESSAGE }],
        properties: {
          name: { type: "string", maxLength: 10 },
          tags: { type: "array", maxItems: 1200, items: { type: "string", maxLength: 8 } },
        },
      },
    },
  },
};

const crd = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: crdName },
  spec: {
    group,
    scope: "Namespaced",
    names: { plural: "uniques", singular: "unique", kind: "Unique", listKind: "UniqueList" },
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: "object", properties: { spec: specSchema } } },
      },
    ],
  },
};

const items = (n: number, prefix = "i") => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const unique = (name: string, list: string[]) => ({
  apiVersion: `${group}/v1`,
  kind: "Unique",
  metadata: { name },
  spec: { items: list },
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
  ns = uniqueName("celx");
  expect((await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } })).status).toBe(201);
  const created = await t.call("POST", CRDS, { body: crd });
  expect(created.status, created.text).toBe(201);
  await established(crdName);
});

afterAll(async () => {
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t.call("DELETE", `${CRDS}/${crdName}`);
  await t.close();
});

describe("expensive CRD validation rules (CEL)", () => {
  it("accepts an object every expensive rule holds for", async () => {
    const res = await t.call("POST", base(), { body: unique("fine", items(ITEMS)) });
    expect(res.status, res.text).toBe(201);
    expect(res.json.spec.items).toHaveLength(ITEMS);
  });

  it("refuses an object an expensive rule fails, with its message and messageExpression", async () => {
    const list = [...items(ITEMS - 3), "i7", "bad-a", "bad-b"];
    const res = await t.call("POST", base(), { body: unique("dup", list) });
    expect(res.status).toBe(422);
    expect(causes(res)).toEqual([
      ["spec", "FieldValueInvalid", "Invalid value: items must be unique"],
      ["spec", "FieldValueInvalid", "Invalid value: bad items after i0"],
    ]);
    expect(res.json.message).toBe(
      `Unique.${group} "dup" is invalid: [spec: Invalid value: items must be unique, spec: Invalid value: bad items after i0]`,
    );
  });

  it("lists the causes of two rules failing with one message, and says it once in the message", async () => {
    const res = await t.call("POST", base(), { body: unique("solo", ["solo"]) });
    expect(res.status).toBe(422);
    const cause = ["spec", "FieldValueInvalid", "Invalid value: one item is not enough"];
    expect(causes(res)).toEqual([cause, cause]);
    expect(res.json.message).toBe(
      `Unique.${group} "solo" is invalid: spec: Invalid value: one item is not enough`,
    );
  });

  it("evaluates an expensive transition rule on update against the old value", async () => {
    const created = await t.call("POST", base(), { body: unique("grow", items(ITEMS)) });
    expect(created.status, created.text).toBe(201);
    const grown = await t.call("PUT", `${base()}/grow`, {
      body: { ...created.json, spec: { items: [...items(ITEMS), "extra"] } },
    });
    expect(grown.status, grown.text).toBe(200);
    const shrunk = await t.call("PUT", `${base()}/grow`, {
      body: { ...grown.json, spec: { items: items(ITEMS - 1) } },
    });
    expect(shrunk.status).toBe(422);
    expect(causes(shrunk)).toEqual([
      ["spec", "FieldValueInvalid", "Invalid value: items may not be removed"],
    ]);
  });

  it("takes a messageExpression's cost from the object's budget, and stops at its per-call limit", async () => {
    const group = (name: string, tags: number) => ({ name, tags: items(tags, "t") });
    const obj = unique("costly-message", items(3));
    const cheap = await t.call("POST", base(), {
      body: { ...obj, spec: { ...obj.spec, groups: [group("x", 10), group("y", 1000)] } },
    });
    expect(cheap.status).toBe(422);
    expect(causes(cheap)).toEqual([["spec.groups[0]", "FieldValueInvalid", "Invalid value: checked x"]]);
    const costly = await t.call("POST", base(), {
      body: { ...obj, spec: { ...obj.spec, groups: [group("x", 1000), group("x", 10)] } },
    });
    expect(costly.status).toBe(422);
    expect(causes(costly)).toEqual([
      [
        "spec.groups[0]",
        "FieldValueInvalid",
        `Invalid value: "object": no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(COSTLY_MESSAGE)}`,
      ],
    ]);
  });

  it("lands every one of concurrent patches of one object that wait for expensive rules", async () => {
    const created = await t.call("POST", base(), { body: unique("busy", items(ITEMS)) });
    expect(created.status, created.text).toBe(201);
    const keys = ["a", "b", "c", "d"];
    const patched = await Promise.all(
      keys.map((k) =>
        t.call("PATCH", `${base()}/busy`, {
          body: { spec: { notes: { [k]: k } } },
          contentType: "application/merge-patch+json",
        }),
      ),
    );
    expect(patched.map((r) => r.status)).toEqual(keys.map(() => 200));
    const read = await t.call("GET", `${base()}/busy`);
    expect(read.json.spec.notes).toEqual(Object.fromEntries(keys.map((k) => [k, k])));
  });
});
