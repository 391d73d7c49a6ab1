/**
 * CEL rules on a worker thread (cel/rules-pool.ts) answer what inline evaluation answers — passes,
 * failures with messages and messageExpressions, evaluation errors, the per-call limit's
 * cancellation, transition rules and ratcheting on update — and inline evaluation hands over only
 * once the rules' estimated costs on the object pass the inline limit.
 */
import { afterAll, describe, expect, it } from "vitest";
import { compileSchemaRules } from "../src/cel/compile-rules.js";
import type { RuleNode } from "../src/cel/rule-tree.js";
import { INLINE_COST_LIMIT, useRuleWorkers, validateRulesOffThread } from "../src/cel/rules-pool.js";
import { validateRules, validateRulesWithin } from "../src/cel/validate-rules.js";
import type { JsonSchema } from "../src/crd/json-schema.js";

const release = useRuleWorkers();
afterAll(() => release());

const schema = {
  type: "object",
  properties: {
    tags: {
      type: "array",
      maxItems: 1400,
      items: { type: "string", maxLength: 8, "x-kubernetes-validations": [{ rule: "self != 'x'" }] },
      "x-kubernetes-validations": [
        { rule: "self.all(x, self.exists_one(y, y == x))", message: "tags must be unique" },
        { rule: "self.size() < 5 || self[4] != 'five'", messageExpression: "'fifth is ' + self[4]" },
        { rule: "self.size() != 6 || int(self[5]) > 0" },
        { rule: "oldSelf.all(t, t in self)", message: "tags may not be removed" },
      ],
    },
  },
} as unknown as JsonSchema;

const compiled = compileSchemaRules(schema, "");
const root = compiled.root as RuleNode;
const tags = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);

const MUST_BE_UNIQUE = ["tags", "tags must be unique"];
const CANCELLED =
  "'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: tags must be unique";
const NOT_INT =
  "int() type error: cannot convert to int evaluating rule: self.size() != 6 || int(self[5]) > 0";
/** Name, object, old object, the failures' fields and details. */
const CASES: [string, unknown, unknown, string[][]][] = [
  ["a valid object", { tags: tags(10) }, undefined, []],
  [
    "duplicates, a message expression and a bad item",
    { tags: ["a", "a", "x", "y", "five"] },
    undefined,
    [MUST_BE_UNIQUE, ["tags", "fifth is five"], ["tags[2]", "failed rule: self != 'x'"]],
  ],
  ["an evaluation error", { tags: ["a", "b", "c", "d", "e", "f"] }, undefined, [["tags", NOT_INT]]],
  ["a rule over the per-call limit", { tags: tags(1000) }, undefined, [["tags", CANCELLED]]],
  ["an expensive valid object", { tags: tags(400) }, undefined, []],
  [
    "an expensive update that removes an item",
    { tags: tags(399) },
    { tags: tags(400) },
    [["tags", "tags may not be removed"]],
  ],
  [
    "an update keeping a bad item of a list (not ratcheted)",
    { tags: ["x", "b"] },
    { tags: ["x"] },
    [["tags[0]", "failed rule: self != 'x'"]],
  ],
];

describe("CEL rules on a worker thread", () => {
  it("compiles every rule of the test schema", () => {
    expect(compiled.errors).toEqual([]);
  });

  it.each(CASES)("%s gives the inline answer", async (_name, obj, old, failures) => {
    const inline = validateRules(root, obj, old);
    expect(inline.map((e) => [e.field, e.detail])).toEqual(failures);
    expect(await validateRulesOffThread("rules-pool-test", schema, obj, old)).toEqual(inline);
  });

  it("evaluates inline below the inline limit and hands over above it", () => {
    expect(validateRulesWithin(root, { tags: tags(10) }, undefined, INLINE_COST_LIMIT)).toEqual([]);
    expect(validateRulesWithin(root, { tags: tags(400) }, undefined, INLINE_COST_LIMIT)).toBeUndefined();
  });
});
