/**
 * The CEL layer of the embedded server on its own: compilation cached per schema object, evaluation
 * bounded by the per-call cost limit, the Kubernetes libraries and RE2 regexes. The wire behaviour is
 * tested on both servers in test/server/crd-cel.test.ts and by `pnpm diff:cel`.
 */
import { describe, expect, it } from "vitest";
import { compileSchemaRules } from "../src/cel/compile-rules.js";
import { baseEnvironment } from "../src/cel/environment.js";
import { compileExpression } from "../src/cel/program.js";
import { validateRules } from "../src/cel/validate-rules.js";
import type { JsonSchema } from "../src/crd/json-schema.js";

const listSchema = (maxItems: number) =>
  ({
    type: "object",
    properties: {
      tags: {
        type: "array",
        maxItems,
        items: { type: "string", maxLength: 8 },
        "x-kubernetes-validations": [{ rule: "self.all(x, self.exists(y, x == y))" }],
      },
    },
  }) as unknown as JsonSchema;

function evaluate(expr: string): unknown {
  const c = compileExpression(baseEnvironment(), expr);
  if (!c.ok) return `compile error: ${c.error}`;
  return c.program.run({});
}

describe("CEL rules of a CRD schema", () => {
  it("compiles a schema's rules once per schema object", () => {
    const schema = listSchema(10);
    const first = compileSchemaRules(schema, "s");
    expect(first.errors).toEqual([]);
    expect(compileSchemaRules(schema, "s")).toBe(first);
    expect(compileSchemaRules(listSchema(10), "s")).not.toBe(first);
  });

  it("refuses a quadratic rule over a list that may be long when the CRD is written", () => {
    const { errors } = compileSchemaRules(listSchema(100_000), "s");
    const hint =
      "exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)";
    expect(errors).toEqual([
      {
        type: "FieldValueForbidden",
        field: "s.properties[tags].x-kubernetes-validations[0].rule",
        detail: `estimated rule cost ${hint}`,
      },
      {
        type: "FieldValueForbidden",
        field: "s.properties[tags].x-kubernetes-validations[0].rule",
        detail: "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema",
      },
      {
        type: "FieldValueForbidden",
        field: "s",
        detail: `x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema ${hint}`,
      },
    ]);
  });

  it("does not run a rule whose cost on this object is over the per-call limit, and stops there", () => {
    const { root } = compileSchemaRules(listSchema(1000), "s");
    if (!root) throw new Error("expected compiled rules");
    const small = { tags: Array.from({ length: 100 }, (_, i) => `t${i}`) };
    expect(validateRules(root, small, undefined)).toEqual([]);
    const large = { tags: Array.from({ length: 1000 }, (_, i) => `t${i}`) };
    expect(validateRules(root, large, undefined)).toEqual([
      {
        type: "FieldValueInvalid",
        field: "tags",
        value: "array",
        detail:
          "'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.all(x, self.exists(y, x == y))",
      },
    ]);
  });
});

describe("CEL libraries", () => {
  it("has the Kubernetes list and set functions", () => {
    expect(evaluate("[1, 2, 3].isSorted() && [3, 1, 2].min() == 1 && [1, 2].sum() == 3")).toBe(true);
    expect(evaluate("[1, 2, 1].lastIndexOf(1) == 2 && ['a', 'b'].indexOf('b') == 1")).toBe(true);
    expect(evaluate("sets.contains([1, 2, 3], [1, 2]) && !sets.intersects([1], [2])")).toBe(true);
    expect(evaluate("sets.equivalent([1, 2], [2, 1, 1])")).toBe(true);
  });

  it("matches with RE2 semantics and refuses a pattern RE2 does not accept when compiling", () => {
    expect(evaluate("'ABC'.matches('(?i)^abc$')")).toBe(true);
    expect(evaluate("'a1b22'.findAll('[0-9]+') == ['1', '22'] && 'a1b22'.find('[0-9]+') == '1'")).toBe(true);
    expect(evaluate("'abc'.matches('(?=a)')")).toBe(
      "compile error: program instantiation failed: error parsing regexp: invalid or unsupported Perl syntax: `(?=`",
    );
  });

  it("has the string extensions, quantities, IPs, CIDRs and URLs", () => {
    expect(evaluate("'héllo'.charAt(1) == 'é' && 'aaa'.replace('a', 'b', 2) == 'bba'")).toBe(true);
    expect(evaluate("'%s has %d'.format(['x', 3]) == 'x has 3'")).toBe(true);
    expect(
      evaluate("quantity('1.5Gi').isGreaterThan(quantity('1Gi')) && quantity('2k').asInteger() == 2000"),
    ).toBe(true);
    expect(evaluate("cidr('10.0.0.0/8').containsIP('10.2.3.4') && ip('::1').family() == 6")).toBe(true);
    expect(evaluate("url('https://a.example:8080/x').getPort() == '8080' && !isURL('::')")).toBe(true);
  });
});
