/**
 * CostPacer (src/cel/admission/pacer.ts): admission policies give the event loop back once their
 * expressions have spent more than the threshold since the last turn, and answer the same whether
 * they give it back after every expression or never.
 */
import { describe, expect, it } from "vitest";
import { compileValidatingPolicy, validatePolicy } from "../src/admission/policies/validating-policy.js";
import { CostPacer } from "../src/cel/admission/index.js";
import { configMapInput } from "./support/admission-input.js";

/** Whether a callback queued with setImmediate before `step` ran before `step` resolved. */
async function gaveTurn(step: () => Promise<unknown>): Promise<boolean> {
  let ran = false;
  setImmediate(() => {
    ran = true;
  });
  await step();
  return ran;
}

const items = Array.from({ length: 60 }, (_, i) => `i${i % 50}`);
const policy = compileValidatingPolicy({
  metadata: { name: "unique" },
  spec: {
    variables: [{ name: "n", expression: "size(object.items)" }],
    matchConditions: [{ name: "has-items", expression: "has(object.items)" }],
    validations: [
      {
        expression: "object.items.all(x, object.items.exists_one(y, y == x))",
        messageExpression: "'dups in ' + string(variables.n)",
      },
      { expression: "variables.n < 10", reason: "Forbidden" },
      { expression: "object.items.all(x, x.size() < 2)" },
    ],
    auditAnnotations: [{ key: "count", valueExpression: "string(variables.n)" }],
  },
});
const input = configMapInput({ items });

describe("CostPacer", () => {
  it("gives the loop back only once the cost since the last turn passes the threshold", async () => {
    const pacer = new CostPacer(100);
    expect(await gaveTurn(() => pacer.charge(60))).toBe(false);
    expect(await gaveTurn(() => pacer.charge(60))).toBe(true);
    expect(await gaveTurn(() => pacer.charge(100))).toBe(false);
    expect(await gaveTurn(() => pacer.charge(1))).toBe(true);
  });

  it("a policy's decisions, messages and audit annotations are the same with a turn after every expression or none", async () => {
    const paced = await validatePolicy(policy, input, new CostPacer(0));
    const unpaced = await validatePolicy(policy, input, new CostPacer(Number.POSITIVE_INFINITY));
    expect(paced).toEqual(unpaced);
    expect(paced.decisions.map((d) => [d.index, d.message, d.reason])).toEqual([
      [0, "dups in 60", "Invalid"],
      [1, "failed expression: variables.n < 10", "Forbidden"],
      [2, "failed expression: object.items.all(x, x.size() < 2)", "Invalid"],
    ]);
    expect([...paced.auditAnnotations]).toEqual([["count", "60"]]);
  });

  it("an expensive policy gives the loop back between its expressions", async () => {
    expect(await gaveTurn(() => validatePolicy(policy, input, new CostPacer(0)))).toBe(true);
    expect(await gaveTurn(() => validatePolicy(policy, input, new CostPacer(Number.POSITIVE_INFINITY)))).toBe(
      false,
    );
  });
});
