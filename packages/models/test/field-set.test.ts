/**
 * FieldSet: fieldsV1 parsing and encoding (upstream child order, `.` markers, k:/v:/i: keys), set
 * algebra, hasPrefix, and upstream's human path syntax.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { elementKey, FieldSet, formatPath, type PathElement } from "../src/index.js";

/** A Deployment's entries as a kube-apiserver 1.37 wrote them (client-side apply, then a controller). */
const DEPLOYMENT_CSA = {
  "f:metadata": {
    "f:annotations": { ".": {}, "f:kubectl.kubernetes.io/last-applied-configuration": {} },
    "f:finalizers": { ".": {}, 'v:"example.com/guard"': {} },
    "f:labels": { ".": {}, "f:app": {} },
  },
  "f:spec": {
    "f:progressDeadlineSeconds": {},
    "f:replicas": {},
    "f:selector": {},
    "f:template": {
      "f:metadata": { "f:labels": { ".": {}, "f:app": {} } },
      "f:spec": {
        "f:containers": {
          'k:{"name":"nginx"}': {
            ".": {},
            "f:image": {},
            "f:name": {},
            "f:ports": {
              ".": {},
              'k:{"containerPort":80,"protocol":"TCP"}': { ".": {}, "f:containerPort": {}, "f:protocol": {} },
            },
          },
        },
      },
    },
  },
};

/** A status entry with positional items (`i:`), as written for lists without merge keys. */
const STATUS_WITH_INDEXES = {
  "f:status": {
    "f:conditions": { ".": {}, 'k:{"type":"Available"}': { ".": {}, "f:status": {}, "f:type": {} } },
    "f:loadBalancer": { "f:ingress": { "i:0": { "f:ip": {} }, "i:1": { "f:hostname": {} } } },
  },
};

const keysOf = (o: unknown): string[] => Object.keys(o as object);

describe("fieldsV1", () => {
  it.each([
    ["a client-side-applied Deployment", DEPLOYMENT_CSA],
    ["a status with positions", STATUS_WITH_INDEXES],
  ])("round-trips %s byte for byte, child order included", (_, sample) => {
    const set = FieldSet.fromFieldsV1(sample);
    expect(JSON.stringify(set.toFieldsV1())).toBe(JSON.stringify(sample));
  });

  it("reads leaves and `.` members as paths, and not their parents", () => {
    const set = FieldSet.fromFieldsV1(DEPLOYMENT_CSA);
    expect(set.hasKeys(["f:spec", "f:replicas"])).toBe(true);
    expect(set.hasKeys(["f:metadata", "f:labels"])).toBe(true);
    expect(set.hasKeys(["f:metadata", "f:finalizers", 'v:"example.com/guard"'])).toBe(true);
    expect(set.hasKeys(["f:spec", "f:template", "f:spec", "f:containers", 'k:{"name":"nginx"}'])).toBe(true);
    expect(set.hasKeys(["f:spec"])).toBe(false);
    expect(set.hasKeys(["f:spec", "f:template"])).toBe(false);
    expect(set.paths()).toHaveLength(18);
  });

  it("writes children in f:, k:, v:, i: order, each sorted, with `.` first on owned parents", () => {
    const set = FieldSet.fromPaths([
      ["f:x", "i:1"],
      ["f:x", 'v:"b"'],
      ["f:x", "i:0"],
      ["f:x", 'k:{"a":1}'],
      ["f:x", "f:z"],
      ["f:x"],
      ["f:x", "f:a"],
      ["f:x", 'v:"a"'],
    ]);
    const fields = set.toFieldsV1();
    expect(keysOf(fields["f:x"])).toEqual([".", "f:a", "f:z", 'k:{"a":1}', 'v:"a"', 'v:"b"', "i:0", "i:1"]);
    // A member without children is a plain leaf, no `.`.
    expect(FieldSet.fromPaths([["f:x"]]).toFieldsV1()).toEqual({ "f:x": {} });
  });

  it("reads nothing from empty or missing input", () => {
    expect(FieldSet.fromFieldsV1({}).empty).toBe(true);
    expect(FieldSet.fromFieldsV1(undefined).empty).toBe(true);
    expect(FieldSet.fromFieldsV1({}).toFieldsV1()).toEqual({});
  });
});

describe("element keys and paths", () => {
  it("encodes keys as compact JSON with sorted names, values as JSON", () => {
    expect(elementKey({ field: "spec" })).toBe("f:spec");
    expect(elementKey({ key: { protocol: "TCP", containerPort: 80 } })).toBe(
      'k:{"containerPort":80,"protocol":"TCP"}',
    );
    expect(elementKey({ value: "example.com/guard" })).toBe('v:"example.com/guard"');
    expect(elementKey({ value: { b: 1, a: [2, "x"] } })).toBe('v:{"a":[2,"x"],"b":1}');
    expect(elementKey({ index: 3 })).toBe("i:3");
  });

  it("prints upstream's path syntax", () => {
    const image: PathElement[] = [
      { field: "spec" },
      { field: "containers" },
      { key: { name: "nginx" } },
      { field: "image" },
    ];
    expect(formatPath(image)).toBe('.spec.containers[name="nginx"].image');
    expect(formatPath([{ field: "ports" }, { key: { protocol: "TCP", containerPort: 80 } }])).toBe(
      '.ports[containerPort=80,protocol="TCP"]',
    );
    expect(formatPath([{ field: "metadata" }, { field: "finalizers" }, { value: "a/b" }])).toBe(
      '.metadata.finalizers[="a/b"]',
    );
    expect(formatPath([{ field: "args" }, { index: 3 }])).toBe(".args[3]");
    expect(formatPath([])).toBe("");
  });

  it("insert takes path elements, insertKeys their keys, to the same effect", () => {
    const a = new FieldSet();
    a.insert([{ field: "spec" }, { field: "containers" }, { key: { name: "nginx" } }]);
    const b = new FieldSet();
    b.insertKeys(["f:spec", "f:containers", 'k:{"name":"nginx"}']);
    expect(a.toFieldsV1()).toEqual(b.toFieldsV1());
  });
});

describe("set algebra", () => {
  const a = FieldSet.fromPaths([
    ["f:spec", "f:replicas"],
    ["f:spec", "f:selector"],
    ["f:metadata", "f:labels"],
  ]);
  const b = FieldSet.fromPaths([
    ["f:spec", "f:replicas"],
    ["f:data", "f:x"],
  ]);

  it("union, difference and intersection work on member paths", () => {
    expect(a.union(b).toFieldsV1()).toEqual({
      "f:data": { "f:x": {} },
      "f:metadata": { "f:labels": {} },
      "f:spec": { "f:replicas": {}, "f:selector": {} },
    });
    expect(a.difference(b).toFieldsV1()).toEqual({
      "f:metadata": { "f:labels": {} },
      "f:spec": { "f:selector": {} },
    });
    expect(a.intersection(b).toFieldsV1()).toEqual({ "f:spec": { "f:replicas": {} } });
    expect(a.intersection(FieldSet.fromPaths([["f:spec"]])).empty).toBe(true);
    expect(a.intersects(b)).toBe(true);
    expect(a.intersects(FieldSet.fromPaths([["f:spec"]]))).toBe(false);
  });

  it("hasPrefix: the path itself or anything below it is a member", () => {
    expect(a.hasPrefix(["f:spec"])).toBe(true);
    expect(a.hasPrefix(["f:spec", "f:replicas"])).toBe(true);
    expect(a.hasPrefix(["f:spec", "f:template"])).toBe(false);
    expect(a.hasPrefix(["f:status"])).toBe(false);
    expect(a.hasPrefix([])).toBe(true);
    expect(new FieldSet().hasPrefix([])).toBe(false);
  });
});

const elementKeyArb = fc.oneof(
  fc.constantFrom("a", "b", "spec", "x.y").map((f) => `f:${f}`),
  fc.constantFrom(1, 2, "n").map((v) => elementKey({ key: { name: v } })),
  fc.constantFrom("p", "q").map((v) => elementKey({ value: v })),
  fc.integer({ min: 0, max: 3 }).map((i) => `i:${i}`),
);
const pathArb = fc.array(elementKeyArb, { minLength: 1, maxLength: 4 });
const setArb = fc.array(pathArb, { maxLength: 12 }).map((paths) => FieldSet.fromPaths(paths));
const same = (x: FieldSet, y: FieldSet) => JSON.stringify(x.toFieldsV1()) === JSON.stringify(y.toFieldsV1());

describe("laws (fast-check)", () => {
  it("fieldsV1 round trip is the identity", () => {
    fc.assert(fc.property(setArb, (s) => same(FieldSet.fromFieldsV1(s.toFieldsV1()), s)));
  });

  it("union and intersection commute; (a ∖ b) ∪ (a ∩ b) = a; (a ∖ b) ∩ b = ∅", () => {
    fc.assert(
      fc.property(setArb, setArb, (x, y) => {
        expect(same(x.union(y), y.union(x))).toBe(true);
        expect(same(x.intersection(y), y.intersection(x))).toBe(true);
        expect(same(x.difference(y).union(x.intersection(y)), x)).toBe(true);
        expect(x.difference(y).intersection(y).empty).toBe(true);
        expect(x.intersects(y)).toBe(!x.intersection(y).empty);
      }),
    );
  });

  it("a member of the union is a member of one side, and has itself as a prefix", () => {
    fc.assert(
      fc.property(setArb, setArb, (x, y) => {
        for (const p of x.union(y).paths()) {
          expect(x.hasKeys(p) || y.hasKeys(p)).toBe(true);
          expect(x.union(y).hasPrefix(p)).toBe(true);
        }
      }),
    );
  });
});

describe("set operations match their definitions on member paths", () => {
  it("union, difference and intersection equal rebuilding from the kept paths", () => {
    fc.assert(
      fc.property(setArb, setArb, (x, y) => {
        const xs = x.paths();
        expect(x.union(y).paths()).toEqual(FieldSet.fromPaths([...xs, ...y.paths()]).paths());
        expect(x.difference(y).paths()).toEqual(xs.filter((p) => !y.hasKeys(p)));
        expect(x.intersection(y).paths()).toEqual(xs.filter((p) => y.hasKeys(p)));
        expect(x.difference(x).empty).toBe(true);
        expect(x.empty).toBe(xs.length === 0);
      }),
    );
  });
});

describe("toFieldsV1Text", () => {
  const text = (s: FieldSet) => JSON.stringify(s.toFieldsV1());

  it("is the JSON text of toFieldsV1, byte for byte, for seeded random sets", () => {
    fc.assert(
      fc.property(setArb, setArb, (x, y) => {
        for (const s of [x, y, x.union(y), x.difference(y), x.intersection(y)])
          expect(s.toFieldsV1Text()).toBe(text(s));
      }),
      { seed: 35, numRuns: 3000 },
    );
  });

  // Keys outside fieldsV1's grammar: array indexes and __proto__ (which a JS object does not keep
  // in insertion order or as an own key), the member marker, escapes, non-ASCII, mixed kinds.
  const rawKeyArb = fc.oneof(
    elementKeyArb,
    fc.constantFrom(".", "0", "1", "10", "01", "4294967295", "__proto__", 'a"b', "é", "\u2028", "", "k:{}"),
    fc.string({ maxLength: 4 }),
  );
  const rawSetArb = fc
    .array(fc.array(rawKeyArb, { minLength: 0, maxLength: 4 }), { maxLength: 12 })
    .map((paths) => FieldSet.fromPaths(paths));

  it("is the JSON text of toFieldsV1 for sets built from raw keys too", () => {
    fc.assert(
      fc.property(rawSetArb, (s) => {
        expect(s.toFieldsV1Text()).toBe(text(s));
      }),
      { seed: 36, numRuns: 3000 },
    );
  });

  it("encodes members with children, empty sets and upstream's key order", () => {
    expect(new FieldSet().toFieldsV1Text()).toBe("{}");
    const s = FieldSet.fromPaths([
      ["f:spec"],
      ["f:spec", "f:b"],
      ["f:spec", 'k:{"name":"x"}'],
      ["f:spec", "i:0"],
    ]);
    expect(s.toFieldsV1Text()).toBe('{"f:spec":{".":{},"f:b":{},"k:{\\"name\\":\\"x\\"}":{},"i:0":{}}}');
  });
});
