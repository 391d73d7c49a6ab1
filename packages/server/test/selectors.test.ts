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
    // selector -> whether it selects `labels`
    const cases: [string, boolean][] = [
      ["env=prod", true],
      ["env!=prod", false],
      ["missing!=x", true],
      ["env in (dev,prod)", true],
      ["missing in (a)", false],
      ["missing notin (a)", true],
      ["tier,!missing", true],
      ["!tier", false],
      ["n>2,n<4", true],
      ["env>1", false],
      ["env=prod,tier=db", false],
    ];
    for (const [selector, selected] of cases) expect(matches(selector, labels), selector).toBe(selected);
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
