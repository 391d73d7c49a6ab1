/**
 * The rules of crd-cel-comprehensions.test.ts: two-variable comprehensions, sortBy and names in
 * backticks on a spec's fields, objects that pass or fail them with the messages of each failure,
 * and misuses the apiserver refuses when the CRD is written, with where and what cel-go reports.
 */

export const SPEC_SCHEMA = {
  type: "object",
  properties: {
    m: { type: "object", maxProperties: 10, additionalProperties: { type: "integer" } },
    l: { type: "array", maxItems: 10, items: { type: "integer" } },
    s: { type: "string", maxLength: 10 },
    labels: { type: "object", maxProperties: 10, additionalProperties: { type: "string", maxLength: 10 } },
    "a-b": { type: "integer" },
    items: {
      type: "array",
      maxItems: 10,
      items: {
        type: "object",
        properties: { name: { type: "string", maxLength: 10 }, score: { type: "integer" } },
      },
    },
    names: { type: "array", maxItems: 10, items: { type: "string", maxLength: 10 } },
    /** No bounds: what a comprehension over it costs decides whether a rule is accepted. */
    ul: { type: "array", items: { type: "string" } },
  },
};

export const SPEC_RULES = [
  { rule: "!has(self.m) || self.m.all(k, v, v > 0)", message: "m: values must be positive" },
  {
    rule: "!has(self.m) || !self.m.exists(k, v, k.startsWith('x') && v > 5)",
    message: "m: an x key holds at most 5",
  },
  { rule: "!has(self.l) || self.l.all(i, v, i == 0 || self.l[i - 1] <= v)", message: "l: not sorted" },
  {
    rule: "!has(self.l) || !self.l.exists(i, v, v == 7) || self.l.existsOne(i, v, v == 7) && self.l.exists_one(i, v, v == 7)",
    message: "l: 7 at most once",
  },
  {
    rule: "!has(self.l) || self.l.transformList(i, v, v < 0, i).size() <= 1",
    message: "l: one negative at most",
  },
  {
    rule: "!has(self.m) || self.m.transformMap(k, v, v * 2).all(k, v, v < 100)",
    message: "m: values below 50",
  },
  { rule: "!has(self.l) || self.l.all(i, v, 100 / v != 0)", message: "l: values up to 100" },
  {
    rule: "!has(self.items) || self.items.transformMapEntry(i, x, {x.name: x.score}).size() > 0",
    message: "items: unique names",
  },
  {
    rule: "!has(self.items) || self.items.sortBy(x, x.score).map(x, x.name) == self.items.map(x, x.name)",
    message: "items: ordered by score",
  },
  { rule: "!has(self.labels) || !has(self.labels.`a-b`) || self.labels.`a-b` != 'x'", message: "a-b is x" },
  {
    rule: "!has(self.labels) || self.labels.all(k, v, v != '')",
    messageExpression:
      "self.labels.transformList(k, v, v == '', k).size() == 1 ? 'one empty label' : 'empty labels'",
  },
];

/** An evaluation error names the rule by its message. */
const evaluating = (error: string, message: string) =>
  `Invalid value: "object": ${error} evaluating rule: ${message}`;

/** Specs and the failures they cause, in rule order. */
export const OUTCOMES: { name: string; spec: Record<string, unknown>; failures: string[] }[] = [
  {
    name: "passes every rule",
    spec: {
      m: { a: 1, x: 5 },
      l: [-1, 2, 7, 9],
      labels: { "a-b": "y" },
      items: [
        { name: "p", score: 1 },
        { name: "q", score: 2 },
      ],
    },
    failures: [],
  },
  {
    name: "map values: all and exists with key and value",
    spec: { m: { a: 0, xb: 6 } },
    failures: ["Invalid value: m: values must be positive", "Invalid value: m: an x key holds at most 5"],
  },
  {
    name: "list index and value, transformList with a filter",
    spec: { l: [-3, -1, 2] },
    failures: ["Invalid value: l: one negative at most"],
  },
  {
    name: "an index out of order",
    spec: { l: [2, 1] },
    failures: ["Invalid value: l: not sorted"],
  },
  { name: "existsOne and exists_one", spec: { l: [7, 7] }, failures: ["Invalid value: l: 7 at most once"] },
  { name: "transformMap", spec: { m: { a: 60 } }, failures: ["Invalid value: m: values below 50"] },
  {
    name: "all: a false predicate outweighs an error",
    spec: { l: [0, 200] },
    failures: ["Invalid value: l: values up to 100"],
  },
  {
    name: "all: an error without a false predicate",
    spec: { l: [0, 5] },
    failures: [evaluating("division by zero", "l: values up to 100")],
  },
  {
    name: "transformMapEntry: a key met twice",
    spec: {
      items: [
        { name: "p", score: 1 },
        { name: "p", score: 2 },
      ],
    },
    failures: [evaluating("insert failed: key p already exists", "items: unique names")],
  },
  {
    name: "sortBy",
    spec: {
      items: [
        { name: "p", score: 2 },
        { name: "q", score: 1 },
      ],
    },
    failures: ["Invalid value: items: ordered by score"],
  },
  {
    name: "a map key in backticks, a messageExpression with a two-variable macro",
    spec: { labels: { "a-b": "x", c: "" } },
    failures: ["Invalid value: a-b is x", "Invalid value: one empty label"],
  },
];

/** Refused when the CRD is written: the rule and `line:column: message` of cel-go's first error. */
export const REFUSED: [string, string][] = [
  ["self.m.all(k, 1, true)", "1:15: argument must be a simple name"],
  ["self.m.all(k, k, true)", "1:15: duplicate variable name: k"],
  ["self.m.all(__result__, v, true)", "1:12: iteration variable overwrites accumulator variable"],
  ["self.m.all(k, v, w, true)", "1:11: undeclared reference to 'all' (in container '')"],
  ["self.m.existsOne(k, true)", "1:17: undeclared reference to 'existsOne' (in container '')"],
  [
    "self.s.all(k, v, true)",
    "1:5: expression of type 'string' cannot be range of a comprehension (must be list, map, or dynamic)",
  ],
  ["self.m.all(k, v, v)", "1:18: expected type 'bool' but found 'int'"],
  ["self.m.existsOne(k, v, v)", "1:17: found no matching overload for '_?_:_' applied to '(int, int, int)'"],
  [
    "self.m.transformMapEntry(k, v, v).size() > 0",
    "1:25: found no matching overload for 'cel.@mapInsert' applied to '(map(dyn, dyn), int)'",
  ],
  [
    "self.l.transformList(i, v, 'x') == self.l",
    "1:33: found no matching overload for '_==_' applied to '(list(string), list(int))'",
  ],
  [
    "self.l.transformList(i, v, v, v).size() > 0",
    "1:21: found no matching overload for '_?_:_' applied to '(int, list(int), list(int))'",
  ],
  [
    "self.m.transformMap(k, v, v, v).size() > 0",
    "1:20: found no matching overload for '_?_:_' applied to '(int, map(string, int), map(string, int))'",
  ],
  ["self.l.exists_one(i, v, v)", "1:18: found no matching overload for '_?_:_' applied to '(int, int, int)'"],
  ["self.l.sortBy(1, e) == self.l", "1:15: argument is not an identifier"],
  [
    "self.l.sortBy(e, [e]) == self.l",
    "1:14: found no matching overload for '@sortByAssociatedKeys' applied to 'list(int).(list(list(int)))'",
  ],
  [
    "1.sortBy(e, e) == []",
    "1:1: sortBy can only be applied to a list, identifier, comprehension, call or select expression",
  ],
  [
    "self.m.sortBy(e, e) == []",
    "1:14: found no matching overload for '@sortByAssociatedKeys' applied to 'map(string, int).(list(string))'",
  ],
  ["self.l.sortBy(e, e, e) == []", "1:14: undeclared reference to 'sortBy' (in container '')"],
  ["self.l.map(1, e) == []", "1:12: argument is not an identifier"],
  ["self.l.all(1, true)", "1:12: argument must be a simple name"],
  ["self.`a-b` == 1", "1:5: undefined field 'a-b'"],
];
