/**
 * The admission CEL environment (src/cel/admission/): message literals of mutations rewritten to
 * map literals, compile failures in cel-go's words, typed and lazy variables, the per-call cost limit, and
 * matchConditions as webhooks use them.
 */
import { describe, expect, it } from "vitest";
import {
  AdmissionActivation,
  compileAdmission,
  compileMatchConditions,
  compileVariables,
  rewriteStructLiterals,
} from "../src/cel/admission/index.js";
import { configMapInput } from "./support/admission-input.js";

const input = configMapInput;

const vars = { params: false, authorizer: true } as const;

describe("admission CEL", () => {
  it("rewrites Object{…} and JSONPatch{…} literals to map literals, leaving strings alone", () => {
    expect(rewriteStructLiterals(`Object{spec: Object.spec{replicas: 1, note: "Object{x: 1}"}}`)).toBe(
      `{"spec": {"replicas": 1, "note": "Object{x: 1}"}}`,
    );
    expect(rewriteStructLiterals(`[JSONPatch{op: "add", path: '/a', value: {"k": object.x}}]`)).toBe(
      `[{"op": "add", "path": '/a', "value": {"k": object.x}}]`,
    );
    expect(rewriteStructLiterals("MyObject{a: 1}.a")).toBe("MyObject{a: 1}.a");
  });

  it("reports compile failures and result types in cel-go's words", () => {
    const typo = compileAdmission("request.operaton == 'CREATE'", { ...vars, returnTypes: ["bool"] });
    expect(typo).toMatchObject({
      ok: false,
      type: "Invalid",
      detail:
        "compilation failed: ERROR: <input>:1:8: undefined field 'operaton'\n | request.operaton == 'CREATE'\n | .......^",
    });
    expect(compileAdmission("object.data", { ...vars, returnTypes: ["bool"] })).toMatchObject({
      ok: false,
      detail: "must evaluate to bool but got dyn",
    });
    expect(compileAdmission("  ", { ...vars, returnTypes: ["bool"] })).toMatchObject({
      ok: false,
      type: "Required",
    });
  });

  it("types each variable by its expression, in order: later expressions see the earlier ones' types", () => {
    const { variables, decls } = compileVariables(
      [
        { name: "odd", expression: "object.spec.replicas % 2 == 1" },
        { name: "count", expression: "size(object.data)" },
        { name: "names", expression: "[object.metadata.name]" },
        { name: "kind", expression: "request.kind" },
        { name: "early", expression: "variables.later" },
        { name: "later", expression: "variables.count + 1" },
      ],
      vars,
    );
    expect(decls).toEqual([
      ["odd", "bool"],
      ["count", "int"],
      ["names", "list<dyn>"],
      ["kind", "dyn"],
      ["early", "dyn"],
      ["later", "int"],
    ]);
    expect(variables[4]?.compiled).toMatchObject({
      ok: false,
      detail:
        "compilation failed: ERROR: <input>:1:10: undefined field 'later'\n | variables.later\n | .........^",
    });
    const scope = { ...vars, variables: decls };
    expect(compileAdmission("variables.odd", { ...scope, returnTypes: ["bool"] }).ok).toBe(true);
    expect(compileAdmission("variables.count", { ...scope, returnTypes: ["bool"] })).toMatchObject({
      detail: "must evaluate to bool but got int",
    });
    expect(compileAdmission("variables.count == 'x'", { ...scope, returnTypes: ["bool"] })).toMatchObject({
      detail: expect.stringContaining("found no matching overload for '_==_' applied to '(int, string)'"),
    });
    expect(compileAdmission("variables.kind.anything", { ...scope, returnTypes: ["dyn"] }).ok).toBe(true);
    expect(compileAdmission("variables.odd", { ...vars, returnTypes: ["bool"] })).toMatchObject({
      detail: expect.stringContaining("undeclared reference to 'variables' (in container '')"),
    });
  });

  it("evaluates variables lazily: an unused failing variable fails nothing", () => {
    const { variables, decls } = compileVariables(
      [
        { name: "n", expression: "size(object.data)" },
        { name: "broken", expression: "object.data.missing" },
      ],
      vars,
    );
    const scope = { ...vars, variables: decls };
    const act = new AdmissionActivation(input({ data: { a: "1" } }), vars, variables);
    expect(act.evaluate(compileAdmission("variables.n == 1", { ...scope, returnTypes: ["bool"] }))).toEqual({
      ok: true,
      value: true,
    });
    expect(
      act.evaluate(compileAdmission("variables.broken == 'x'", { ...scope, returnTypes: ["bool"] })),
    ).toEqual({
      ok: false,
      error: `expression 'variables.broken == 'x'' resulted in error: composited variable "broken" fails to evaluate: no such key: missing`,
    });
  });

  it("cancels an expression over the per-call limit and stops when the budget is spent", () => {
    const data = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, "v"]));
    const costly = compileAdmission("object.data.all(a, object.data.all(b, object.data.all(c, a != '')))", {
      ...vars,
      returnTypes: ["bool"],
    });
    const act = new AdmissionActivation(input({ data }), vars, [], 1_500_000);
    expect(act.evaluate(costly)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/actual cost limit exceeded$/),
    });
    expect(act.evaluate(costly)).toEqual({
      ok: false,
      error: "validation failed due to running out of cost budget, no further validation rules will be run",
      outOfBudget: true,
    });
  });

  it("matches conditions: a false one wins over errors; errors fail under Fail and skip under Ignore", () => {
    const conditions = compileMatchConditions([
      { name: "broken", expression: "object.data.missing == 'x'" },
      { name: "creates", expression: "request.operation == 'CREATE'" },
      { name: "prod", expression: "namespaceObject.metadata.labels.env == 'prod'" },
    ]);
    expect(conditions.compileErrors.size).toBe(0);
    expect(conditions.match(input({ data: {} }, "UPDATE"), "Fail")).toEqual({
      matches: false,
      failedCondition: "creates",
    });
    expect(conditions.match(input({ data: {} }), "Fail")).toEqual({
      error: "expression 'object.data.missing == 'x'' resulted in error: no such key: missing",
    });
    expect(conditions.match(input({ data: {} }), "Ignore")).toEqual({ matches: false });
    expect(conditions.match(input({ data: { missing: "x" } }), "Fail")).toEqual({ matches: true });
  });
});
