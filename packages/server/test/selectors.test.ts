import { describe, expect, it } from "vitest";
import { matchesFields, parseFieldSelector } from "../src/api/field-selector.js";
import { matchesLabels, parseLabelSelector, SelectorParseError } from "../src/api/label-selector.js";

const matches = (selector: string, labels: Record<string, string> | undefined) =>
  matchesLabels(parseLabelSelector(selector), labels);

const PARSERS = { label: parseLabelSelector, field: parseFieldSelector };

// grammar, selector -> parsed requirements
const PARSES: [keyof typeof PARSERS, string, unknown[]][] = [
  [
    "label",
    "a=b,c==d,e!=f",
    [
      { key: "a", op: "=", value: "b" },
      { key: "c", op: "=", value: "d" },
      { key: "e", op: "!=", value: "f" },
    ],
  ],
  [
    "label",
    "env in (prod, dev),tier notin (x)",
    [
      { key: "env", op: "in", values: ["prod", "dev"] },
      { key: "tier", op: "notin", values: ["x"] },
    ],
  ],
  [
    "label",
    "a,!b",
    [
      { key: "a", op: "exists" },
      { key: "b", op: "!" },
    ],
  ],
  [
    "label",
    "n>1,m<5",
    [
      { key: "n", op: ">", value: 1 },
      { key: "m", op: "<", value: 5 },
    ],
  ],
  ["label", "   ", []],
  // prefixed keys and empty values
  [
    "label",
    "app.kubernetes.io/name=web,x=",
    [
      { key: "app.kubernetes.io/name", op: "=", value: "web" },
      { key: "x", op: "=", value: "" },
    ],
  ],
  // field selectors: =, == and != with escapes
  [
    "field",
    "metadata.name=a,status.phase==Running,spec.nodeName!=",
    [
      { field: "metadata.name", op: "=", value: "a" },
      { field: "status.phase", op: "=", value: "Running" },
      { field: "spec.nodeName", op: "!=", value: "" },
    ],
  ],
  ["field", "metadata.name=a\\,b\\=c", [{ field: "metadata.name", op: "=", value: "a,b=c" }]],
  ["field", "", []],
];

describe("selector parsing", () => {
  it.each(PARSES)("%s selector %j", (grammar, selector, requirements) => {
    expect(PARSERS[grammar](selector)).toEqual(requirements);
  });
});

describe("label selectors", () => {
  it("rejects malformed selectors with SelectorParseError", () => {
    for (const bad of ["a=b=c", "-a=b", "a in (x", "Upper.Prefix/a=b", `a=${"v".repeat(64)}`, "a>x"])
      expect(() => parseLabelSelector(bad), bad).toThrow(SelectorParseError);
  });

  it("matches equality, sets, existence and comparisons", () => {
    const labels = { env: "prod", tier: "web", n: "3" };
    expect(matches("env=prod", labels)).toBe(true);
    expect(matches("env!=prod", labels)).toBe(false);
    expect(matches("missing!=x", labels)).toBe(true);
    expect(matches("env in (dev,prod)", labels)).toBe(true);
    expect(matches("missing in (a)", labels)).toBe(false);
    expect(matches("missing notin (a)", labels)).toBe(true);
    expect(matches("tier,!missing", labels)).toBe(true);
    expect(matches("!tier", labels)).toBe(false);
    expect(matches("n>2,n<4", labels)).toBe(true);
    expect(matches("env>1", labels)).toBe(false);
    expect(matches("env=prod,tier=db", labels)).toBe(false);
    expect(matches("", undefined)).toBe(true);
    expect(matches("a", undefined)).toBe(false);
  });

  it("does not treat inherited object properties as labels", () => {
    expect(matches("constructor", {})).toBe(false);
    expect(matches("!toString", {})).toBe(true);
  });
});

describe("field selectors", () => {
  it("rejects a requirement without an operator", () => {
    expect(() => parseFieldSelector("metadata.name")).toThrow(SelectorParseError);
  });

  it("matches against the fields a kind exposes, missing ones being empty", () => {
    const fields = new Map([
      ["metadata.name", "a"],
      ["metadata.namespace", "ns"],
    ]);
    expect(matchesFields(parseFieldSelector("metadata.name=a,metadata.namespace=ns"), fields)).toBe(true);
    expect(matchesFields(parseFieldSelector("metadata.name!=a"), fields)).toBe(false);
    expect(matchesFields(parseFieldSelector("spec.nodeName="), fields)).toBe(true);
    expect(matchesFields(parseFieldSelector("spec.nodeName!="), fields)).toBe(false);
  });
});
