/**
 * A CRD schema's `pattern` is a Go regular expression (RE2): Go's syntax is accepted and means
 * what it means in Go, what Go refuses (lookaround, backreferences) is refused with Go's parse
 * error, and a pattern that backtracks exponentially in JavaScript answers like any other.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CRDS, causesOf, deleteCrd, established, group, ns, t, useCrdFixtures } from "./crd-fixtures.js";

useCrdFixtures();

const CATASTROPHIC = "^(a+)+$";

/** Property name → [pattern, a value it matches, a value it does not]. */
const GO_SYNTAX: Record<string, [string, string, string]> = {
  caseless: ["(?i)^abc$", "AbC", "abd"],
  named: ["^(?P<first>a)b$", "ab", "b"],
  posixClass: ["^[[:alpha:]]+$", "abcXYZ", "abc1"],
  unicodeLetter: ["^\\pL+$", "héllo", "h3llo"],
  textEnd: ["a\\z", "ba", "ab"],
  catastrophic: [CATASTROPHIC, "a".repeat(5000), `${"a".repeat(29)}!`],
};

const patternsCrd = (plural: string, kind: string, properties: Record<string, unknown>) => ({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: `${plural}.${group}` },
  spec: {
    group,
    scope: "Namespaced",
    names: { plural, kind },
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties } } },
        },
      },
    ],
  },
});

const goSyntaxCrd = () =>
  patternsCrd(
    "regexes",
    "Regex",
    Object.fromEntries(Object.entries(GO_SYNTAX).map(([k, [pattern]]) => [k, { type: "string", pattern }])),
  );

describe("CRD pattern as a Go regular expression", () => {
  beforeAll(async () => {
    const created = await t.call("POST", CRDS, { body: goSyntaxCrd() });
    expect(created.status).toBe(201);
    await established(`regexes.${group}`);
  });
  afterAll(async () => {
    await deleteCrd(`regexes.${group}`);
  });

  const create = (name: string, spec: Record<string, string>) =>
    t.call("POST", `/apis/${group}/v1/namespaces/${ns}/regexes`, {
      body: { apiVersion: `${group}/v1`, kind: "Regex", metadata: { name }, spec },
    });

  it("accepts (?i), (?P<name>…), [[:alpha:]], \\pL and \\z in a schema and matches with Go's meaning", async () => {
    const matching = Object.fromEntries(Object.entries(GO_SYNTAX).map(([k, [, good]]) => [k, good]));
    const res = await create("matching", matching);
    expect(res.status).toBe(201);
    expect(res.json.spec).toEqual(matching);
  });

  it.each(Object.entries(GO_SYNTAX))(
    "refuses a %s value the pattern does not match",
    async (k, [pattern, , bad]) => {
      const res = await create(`bad-${k.toLowerCase()}`, { [k]: bad });
      expect(res.status).toBe(422);
      expect(causesOf(res.json)).toEqual([
        [
          `spec.${k}`,
          "FieldValueInvalid",
          `Invalid value: ${JSON.stringify(bad)}: spec.${k} in body should match '${pattern}'`,
        ],
      ]);
    },
  );
});

describe("CRD pattern Go refuses", () => {
  it.each([
    ["lookahead", "a(?=b)", "error parsing regexp: invalid or unsupported Perl syntax: `(?=`"],
    ["negative lookahead", "a(?!b)", "error parsing regexp: invalid or unsupported Perl syntax: `(?!`"],
    ["lookbehind", "(?<=a)b", "error parsing regexp: invalid named capture: `(?<=a)b`"],
    ["backreference", "(a)\\1", "error parsing regexp: invalid escape sequence: `\\1`"],
    ["lone repetition", "+", "error parsing regexp: missing argument to repetition operator: `+`"],
  ])("refuses a %s with Go's parse error", async (_name, pattern, why) => {
    const res = await t.call("POST", CRDS, {
      body: patternsCrd("refuseds", "Refused", { x: { type: "string", pattern } }),
    });
    expect(res.status).toBe(422);
    expect(causesOf(res.json)).toEqual([
      [
        "spec.validation.openAPIV3Schema.properties[spec].properties[x].pattern",
        "FieldValueInvalid",
        `Invalid value: ${JSON.stringify(pattern)}: must be a valid regular expression, but isn't: ${why}`,
      ],
    ]);
  });
});
