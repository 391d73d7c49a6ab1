/**
 * The seeded generator of the CEL differential suite: CRDs whose schema is
 * fixed (an integer, a string, a set of strings, a map-list of ports, a map of
 * labels, a number, a bool, an int-or-string) and whose rules are drawn at
 * random onto its nodes, and objects drawn from small value domains near the
 * rules' constants, so that both outcomes occur.
 */
import type { Random } from "./random.js";
import { type Node, type Rule, randomRule } from "./rules.js";

export const GROUP = "cel.diff.kubesdk.example";

const withRules = (schema: Record<string, unknown>, rules: Rule[]) =>
  rules.length > 0 ? { ...schema, "x-kubernetes-validations": rules } : schema;

/** The spec schema with rules placed on the chosen nodes. */
export function specSchema(rulesAt: Partial<Record<Node, Rule[]>>): Record<string, unknown> {
  const at = (n: Node) => rulesAt[n] ?? [];
  return withRules(
    {
      type: "object",
      properties: {
        n: withRules({ type: "integer" }, at("n")),
        s: withRules({ type: "string", maxLength: 16 }, at("s")),
        tags: withRules(
          {
            type: "array",
            maxItems: 6,
            items: withRules({ type: "string", maxLength: 8 }, at("tag")),
          },
          at("tags"),
        ),
        ports: withRules(
          {
            type: "array",
            maxItems: 4,
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["name"],
            items: withRules(
              {
                type: "object",
                required: ["name"],
                properties: { name: { type: "string", maxLength: 8 }, port: { type: "integer" } },
              },
              at("port"),
            ),
          },
          at("ports"),
        ),
        labels: withRules(
          {
            type: "object",
            maxProperties: 4,
            additionalProperties: withRules({ type: "string", maxLength: 8 }, at("label")),
          },
          at("labels"),
        ),
        ratio: withRules({ type: "number" }, at("ratio")),
        flag: { type: "boolean" },
        ios: withRules({ "x-kubernetes-int-or-string": true }, at("ios")),
        v: withRules({ type: "string", maxLength: 40 }, at("v")),
        d: withRules({ type: "string", format: "duration" }, at("d")),
      },
    },
    at("spec"),
  );
}

export function crd(index: number, spec: Record<string, unknown>): Record<string, unknown> {
  const plural = `things${index}`;
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${GROUP}` },
    spec: {
      group: GROUP,
      scope: "Namespaced",
      names: { plural, singular: `thing${index}`, kind: `Thing${index}`, listKind: `Thing${index}List` },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: "object", properties: { spec } } },
        },
      ],
    },
  };
}

const NODES: Node[] = ["n", "s", "tags", "tag", "ports", "port", "labels", "label", "ratio", "ios", "v", "d"];
/** Versions, addresses, prefixes and names near the library rules' constants. */
const LIBRARY_VALUES = ["1.2.3", "v1.2", "0.9.0-rc.1", "1.10.0+b", "01.2.3", "10.0.0.1", "127.0.0.1", "::1"];
const MORE_VALUES = ["2001:DB8::1", "2001:db8::1", "0.0.0.0", "10.1.0.0/16", "10.1.2.3/16", "::/0", "web-1"];

/** Rules for one CRD: one or two on spec, one on each of three to five other nodes. */
export function randomRules(r: Random): Partial<Record<Node, Rule[]>> {
  const out: Partial<Record<Node, Rule[]>> = { spec: [randomRule(r, "spec")] };
  if (r.chance(0.5)) out.spec?.push(randomRule(r, "spec"));
  for (const n of r.some(NODES, 5)) out[n] = [randomRule(r, n)];
  return out;
}

/** A random spec value: each field present with probability 0.7. */
export function randomSpec(r: Random): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  const maybe = (k: string, v: () => unknown) => {
    if (r.chance(0.7)) spec[k] = v();
  };
  maybe("n", () => r.int(-3, 12));
  maybe("s", () => r.pick(["", "a", "abc", "Abc", "a-b-c", "x1", "bad", "main", "zz9", "b"]));
  maybe("tags", () => r.some(["a", "b", "ab", "bb", "z", "main"], 4));
  maybe("ports", () =>
    r
      .some(["main", "http", "x"], 3)
      .map((name) => (r.chance(0.8) ? { name, port: r.pick([80, 443, 1025, 8080]) } : { name })),
  );
  maybe("labels", () =>
    Object.fromEntries(r.some(["team", "app", "x"], 3).map((k) => [k, r.pick(["blue", "Blue", "a1", ""])])),
  );
  maybe("ratio", () => r.pick([0.5, 1.5, -2.25, 10.75]));
  maybe("flag", () => r.chance(0.5));
  maybe("ios", () => r.pick<unknown>([1, "1", "x", 80]));
  maybe("v", () => r.pick([...LIBRARY_VALUES, ...MORE_VALUES, "Web", "a.b", "", "abc"]));
  maybe("d", () => r.pick(["30s", "1m30s", "2h", "0s", "1.5h", "-1s", "2 days"]));
  return spec;
}

/** An update of a spec: one to three fields changed, added or removed. */
export function mutateSpec(r: Random, spec: Record<string, unknown>): Record<string, unknown> {
  const next = { ...spec };
  const fresh = randomSpec(r);
  for (const k of r.some(["n", "s", "tags", "ports", "labels", "ratio", "flag", "ios", "v", "d"], 3)) {
    if (k in fresh) next[k] = fresh[k];
    else delete next[k];
  }
  return next;
}
