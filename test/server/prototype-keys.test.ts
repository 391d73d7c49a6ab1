/**
 * Keys that are also the names of Object.prototype's properties ("__proto__", "constructor",
 * "toString", ...) are ordinary keys of a ConfigMap's data, of labels and of a custom resource's
 * maps. Every kind of write keeps, replaces and removes them as it does any other key, and a lookup
 * never finds one that is not there. Seeded sequences of writes are checked against a model, on
 * both targets.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSimpleCrd, deleteCrd } from "../support/crd.js";
import { useNamespaceSuite } from "../support/namespace-suite.js";
import { prng } from "../support/prng.js";
import { type TestTarget, uniqueName } from "../support/target.js";
import { bindAndWait, configMapsIn, dryRunConfigMap, policyApi } from "./admission-policy-support.js";

/** Valid ConfigMap keys; all but the last two name a property every plain object inherits. */
const KEYS = [
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "isPrototypeOf",
  "__defineGetter__",
  "propertyIsEnumerable",
  "prototype",
  "plain",
  "a.b",
] as const;

type Data = Map<string, string>;
type Random = () => number;

let t: TestTarget;
let ns: string;
useNamespaceSuite("proto-keys", (target, name) => {
  t = target;
  ns = name;
});
const cms = () => `/api/v1/namespaces/${ns}/configmaps`;

/** An object of these entries (a Map is some): fromEntries defines "__proto__" as a key, as JSON.parse does. */
const asObject = (entries: Iterable<readonly [string, unknown]>) => Object.fromEntries(entries);
const sorted = (o: unknown) =>
  Object.entries((o ?? {}) as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
const pick = <T>(r: Random, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
const someKeys = (r: Random) => KEYS.filter(() => r() < 0.35);
const value = (r: Random) => `v${Math.floor(r() * 1000)}`;
const pointer = (k: string) => `/data/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`;

interface Step {
  readonly name: string;
  readonly method: "PUT" | "PATCH";
  readonly contentType?: string;
  readonly body: unknown;
  /** The model after the step, or undefined when the step must fail with 422 and change nothing. */
  readonly next: Data | undefined;
}

function mergeStep(r: Random, data: Data, strategic: boolean): Step {
  const next = new Map(data);
  const patch = new Map<string, string | null>();
  for (const k of someKeys(r)) {
    const remove = data.has(k) && r() < 0.5;
    patch.set(k, remove ? null : value(r));
    if (remove) next.delete(k);
    else next.set(k, patch.get(k) as string);
  }
  const contentType = strategic ? "application/strategic-merge-patch+json" : "application/merge-patch+json";
  return {
    name: strategic ? "strategic" : "merge",
    method: "PATCH",
    contentType,
    body: { data: asObject(patch) },
    next,
  };
}

/** One JSON patch operation on a random key: those that must fail leave `next` undefined. */
function jsonOperation(r: Random, next: Data | undefined): { op: object; next: Data | undefined } {
  const k = pick(r, KEYS);
  if (next === undefined) return { op: { op: "add", path: pointer(k), value: "x" }, next };
  const out = new Map(next);
  const has = next.has(k);
  switch (pick(r, ["add", "replace", "remove", "test", "move", "copy"])) {
    case "add":
      out.set(k, value(r));
      return { op: { op: "add", path: pointer(k), value: out.get(k) }, next: out };
    case "replace":
      // A replace of a missing member of an existing object adds it, as Go's JSON patch does.
      out.set(k, value(r));
      return { op: { op: "replace", path: pointer(k), value: out.get(k) }, next: out };
    case "remove":
      out.delete(k);
      return { op: { op: "remove", path: pointer(k) }, next: has ? out : undefined };
    case "test":
      return {
        op: { op: "test", path: pointer(k), value: next.get(k) ?? "absent" },
        next: has ? out : undefined,
      };
    default: {
      // Go's copy from a missing member copies a null; only existing members are moved or copied here.
      if (!has) return { op: { op: "add", path: pointer(k), value: "y" }, next: out.set(k, "y") };
      const to = pick(r, KEYS);
      const op = out.size % 2 === 0 ? "move" : "copy";
      const moved = next.get(k) as string;
      if (op === "move") out.delete(k);
      out.set(to, moved);
      return { op: { op, from: pointer(k), path: pointer(to) }, next: out };
    }
  }
}

function jsonStep(r: Random, data: Data): Step {
  const ops: object[] = [];
  // An empty map is not stored (Go leaves it out): then /data itself is missing and every operation fails.
  let next: Data | undefined = data.size > 0 ? data : undefined;
  const count = 1 + Math.floor(r() * 3);
  for (let i = 0; i < count; i++) {
    const o = jsonOperation(r, next);
    ops.push(o.op);
    next = o.next;
  }
  return { name: "json", method: "PATCH", contentType: "application/json-patch+json", body: ops, next };
}

function putStep(r: Random, name: string): Step {
  const next = new Map(someKeys(r).map((k) => [k, value(r)] as const));
  return { name: "put", method: "PUT", body: { metadata: { name }, data: asObject(next) }, next };
}

async function stored(name: string): Promise<Record<string, unknown>> {
  const got = await t.call("GET", `${cms()}/${name}`);
  expect(got.status, got.text).toBe(200);
  return got.json;
}

describe("keys named like Object.prototype's properties", () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    "seed %i: creates, updates and patches keep exactly the model's keys",
    async (seed) => {
      const r = prng(seed);
      const name = `seq-${seed}`;
      let data: Data = new Map(someKeys(r).map((k) => [k, value(r)] as const));
      const created = await t.call("POST", cms(), { body: { metadata: { name }, data: asObject(data) } });
      expect(created.status, created.text).toBe(201);
      expect(sorted(created.json.data)).toEqual(sorted(asObject(data)));
      const trail: string[] = [`create ${JSON.stringify(asObject(data))}`];
      for (let i = 0; i < 10; i++) {
        const kind = pick(r, ["put", "merge", "strategic", "json", "json"]);
        const step =
          kind === "put"
            ? putStep(r, name)
            : kind === "json"
              ? jsonStep(r, data)
              : mergeStep(r, data, kind === "strategic");
        trail.push(`${step.name} ${JSON.stringify(step.body)}`);
        const res = await t.call(step.method, `${cms()}/${name}`, {
          body: step.body,
          contentType: step.contentType,
        });
        const context = `${trail.join("\n")}\n→ ${res.status} ${res.text}`;
        if (step.next === undefined) {
          expect(res.status, context).toBe(422);
        } else {
          expect(res.status, context).toBe(200);
          data = step.next;
        }
        expect(sorted((await stored(name)).data), context).toEqual(sorted(asObject(data)));
      }
    },
  );

  it.each([11, 12, 13, 14])("seed %i: server-side applies own exactly the keys they apply", async (seed) => {
    const r = prng(seed);
    const name = `apply-${seed}`;
    for (let i = 0; i < 6; i++) {
      const data = new Map(someKeys(r).map((k) => [k, value(r)] as const));
      const body = { apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: asObject(data) };
      const res = await t.call("PATCH", `${cms()}/${name}?fieldManager=proto-keys&force=true`, {
        body,
        contentType: "application/apply-patch+yaml",
      });
      const context = `apply ${JSON.stringify(body.data)} → ${res.status} ${res.text}`;
      expect([200, 201], context).toContain(res.status);
      const obj = await stored(name);
      expect(sorted(obj.data), context).toEqual(sorted(asObject(data)));
      const mine = (
        obj.metadata as { managedFields?: { manager: string; fieldsV1: { "f:data"?: object } }[] }
      ).managedFields?.find((m) => m.manager === "proto-keys");
      const owned = Object.keys(mine?.fieldsV1["f:data"] ?? {}).filter((k) => k !== ".");
      expect(owned.sort(), context).toEqual([...data.keys()].map((k) => `f:${k}`).sort());
    }
  });

  it("a Secret's stringData and an object's annotations keep such keys", async () => {
    const b64 = (x: string) => Buffer.from(x).toString("base64");
    const secret = await t.call("POST", `/api/v1/namespaces/${ns}/secrets`, {
      body: {
        metadata: {
          name: "s",
          annotations: asObject([
            ["constructor", "x"],
            ["valueOf", "y"],
          ]),
        },
        stringData: asObject([
          ["__proto__", "a"],
          ["constructor", "b"],
        ]),
        data: { toString: b64("c") },
      },
    });
    expect(secret.status, secret.text).toBe(201);
    expect(sorted(secret.json.data)).toEqual(
      sorted(
        asObject([
          ["__proto__", b64("a")],
          ["constructor", b64("b")],
          ["toString", b64("c")],
        ]),
      ),
    );
    const patched = await t.call("PATCH", `/api/v1/namespaces/${ns}/secrets/s`, {
      body: { metadata: { annotations: { valueOf: null, toString: "z" } } },
      contentType: "application/merge-patch+json",
    });
    expect(patched.status, patched.text).toBe(200);
    expect(sorted(patched.json.metadata.annotations)).toEqual(sorted({ constructor: "x", toString: "z" }));
  });

  it("label keys and selectors see only the labels an object has", async () => {
    const labels = asObject([
      ["constructor", "x"],
      ["toString", "y"],
      ["suite", "sel"],
    ]);
    for (const [name, body] of [
      ["labelled", { metadata: { name: "labelled", labels } }],
      ["bare", { metadata: { name: "bare", labels: { plain: "z", suite: "sel" } } }],
    ] as const) {
      const res = await t.call("POST", cms(), { body });
      expect(res.status, `${name}: ${res.text}`).toBe(201);
    }
    const names = async (selector: string) => {
      const res = await t.call(
        "GET",
        `${cms()}?labelSelector=${encodeURIComponent(`${selector},suite=sel`)}`,
      );
      expect(res.status, res.text).toBe(200);
      return (res.json.items as { metadata: { name: string } }[]).map((o) => o.metadata.name).sort();
    };
    expect(await names("constructor")).toEqual(["labelled"]);
    expect(await names("constructor=x")).toEqual(["labelled"]);
    expect(await names("!toString,plain")).toEqual(["bare"]);
    expect(await names("valueOf")).toEqual([]);
    expect(await names("hasOwnProperty notin (a)")).toEqual(["bare", "labelled"]);
    expect(sorted((await stored("labelled")).metadata as object).find(([k]) => k === "labels")?.[1]).toEqual(
      labels,
    );
  });
});

describe("keys named like Object.prototype's properties in a custom resource", () => {
  const group = "protokeys.kubesdk.test";
  let crdName: string;
  const crs = () => `/apis/${group}/v1/namespaces/${ns}/protos`;
  beforeAll(async () => {
    crdName = await createSimpleCrd(t, {
      group,
      plural: "protos",
      kind: "Proto",
      spec: {
        type: "object",
        properties: {
          settings: {
            type: "object",
            additionalProperties: { type: "string" },
            // CEL sees the map's own keys: "__proto__" counts and is found, "toString" is not there.
            "x-kubernetes-validations": [
              { rule: "size(self) <= 3" },
              { rule: "!('toString' in self)" },
              { rule: "!('__proto__' in self) || self['__proto__'] == 'p'" },
            ],
          },
          free: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
          defaulted: {
            type: "object",
            default: {},
            properties: { constructor: { type: "string", default: "d" }, toString: { type: "string" } },
          },
        },
      },
    });
  });
  afterAll(async () => {
    await deleteCrd(t, crdName);
  });

  it("keeps map and preserved keys, defaults a missing property and prunes unknown ones", async () => {
    const settings = asObject([
      ["__proto__", "p"],
      ["constructor", "c"],
      ["plain", "x"],
    ]);
    const free = asObject([
      ["__proto__", { a: 1 }],
      ["valueOf", [1]],
    ]);
    const spec = asObject([
      ["settings", settings],
      ["free", free],
      ["hasOwnProperty", 1],
    ]);
    const created = await t.call("POST", crs(), {
      body: { apiVersion: `${group}/v1`, kind: "Proto", metadata: { name: "one" }, spec },
    });
    expect(created.status, created.text).toBe(201);
    expect(sorted(created.json.spec)).toEqual(sorted({ defaulted: { constructor: "d" }, free, settings }));

    const second = await t.call("POST", crs(), {
      body: {
        apiVersion: `${group}/v1`,
        kind: "Proto",
        metadata: { name: "two" },
        spec: { defaulted: { toString: "t" } },
      },
    });
    expect(second.status, second.text).toBe(201);
    expect(second.json.spec.defaulted).toEqual({ constructor: "d", toString: "t" });

    const patched = await t.call("PATCH", `${crs()}/one`, {
      body: {
        spec: {
          settings: asObject([
            ["__proto__", null],
            ["valueOf", "s"],
          ]),
        },
      },
      contentType: "application/merge-patch+json",
    });
    expect(patched.status, patched.text).toBe(200);
    expect(sorted(patched.json.spec.settings)).toEqual(
      sorted({ constructor: "c", plain: "x", valueOf: "s" }),
    );
  });

  it.each([
    ["a wrong __proto__ value", [["__proto__", "q"]], 422],
    [
      "four keys, one of them __proto__",
      [
        ["__proto__", "p"],
        ["a", "1"],
        ["b", "2"],
        ["c", "3"],
      ],
      422,
    ],
    ["a toString key", [["toString", "t"]], 422],
    [
      "constructor and valueOf keys",
      [
        ["constructor", "c"],
        ["valueOf", "v"],
      ],
      201,
    ],
  ] as const)("CEL rules see the map's own keys: %s", async (_name, entries, status) => {
    const res = await t.call("POST", crs(), {
      body: {
        apiVersion: `${group}/v1`,
        kind: "Proto",
        metadata: { generateName: "cel-" },
        spec: { settings: asObject(entries) },
      },
    });
    expect(res.status, res.text).toBe(status);
    if (status === 422) expect(res.json.message).toContain("failed rule");
    expect(res.text).not.toContain("Unsupported");
  });
});

describe("keys named like Object.prototype's properties in a ValidatingAdmissionPolicy", () => {
  const cleanup: string[] = [];
  const api = policyApi(
    () => t,
    (path) => cleanup.push(path),
  );
  afterAll(async () => {
    for (const path of cleanup.reverse()) await t.call("DELETE", path);
  });

  it("sees a ConfigMap's own keys: __proto__ counts, toString is found only when there", async () => {
    const policyNs = await api.namespace();
    const policy = uniqueName("proto-keys");
    await api.create("validatingadmissionpolicies", {
      metadata: { name: policy },
      spec: {
        failurePolicy: "Fail",
        matchConstraints: configMapsIn(policyNs),
        validations: [
          { expression: "object.metadata.name != 'probe'" },
          { expression: "!has(object.data) || size(object.data) <= 2", message: "at most two keys" },
          { expression: "!has(object.data) || !('toString' in object.data)", message: "no toString" },
        ],
      },
    });
    await bindAndWait(api, policy, policyNs);
    const cases = [
      [
        [
          ["constructor", "a"],
          ["valueOf", "b"],
        ],
        201,
        undefined,
      ],
      [
        [
          ["constructor", "a"],
          ["valueOf", "b"],
          ["__proto__", "c"],
        ],
        422,
        "at most two keys",
      ],
      [[["toString", "x"]], 422, "no toString"],
    ] as const;
    for (const [entries, status, message] of cases) {
      const data = asObject(entries);
      const res = await dryRunConfigMap(t, policyNs, { metadata: { name: "cm" }, data });
      expect(res.status, `${JSON.stringify(data)}: ${res.text}`).toBe(status);
      if (message) expect(res.json.message).toContain(message);
    }
  });
});
