/**
 * Expensive admission policy expressions on a rule worker (src/cel/admission/offload.ts): a
 * validating policy answers the same (decisions, messages, errors, audit annotations) whether its
 * expensive expressions run on a worker or on the event loop; one that reads `authorizer`, or a
 * variable whose value a clone would change, stays on the event loop.
 */
import { afterAll, describe, expect, it } from "vitest";
import { compileValidatingPolicy, validatePolicy } from "../src/admission/policies/validating-policy.js";
import { CostPacer } from "../src/cel/admission/index.js";
import { offloadSettings } from "../src/cel/admission/offload.js";
import { useRuleWorkers } from "../src/cel/rules-pool.js";
import { configMapInput } from "./support/admission-input.js";

const release = useRuleWorkers();
afterAll(() => {
  offloadSettings.minCost = 100_000;
  release();
});

const items = Array.from({ length: 60 }, (_, i) => `i${i % 50}`);
const policy = compileValidatingPolicy({
  metadata: { name: "offloaded" },
  spec: {
    variables: [
      { name: "n", expression: "size(object.items)" },
      { name: "firsts", expression: "object.items.map(x, x.substring(0, 2))" },
      { name: "wait", expression: "duration('5s')" },
    ],
    validations: [
      {
        expression: "object.items.all(x, object.items.exists_one(y, y == x))",
        messageExpression: "'dups in ' + string(variables.n) + ' of ' + string(size(variables.firsts))",
      },
      { expression: "object.items.all(x, int(x) > 0)" },
      { expression: "variables.firsts.all(f, variables.firsts.exists(g, g == f))" },
      { expression: "variables.wait > duration('1s') && object.items.all(x, x.size() < 2)" },
      { expression: "authorizer.requestResource.check('create').allowed() && size(object.items) < 10" },
    ],
    auditAnnotations: [{ key: "first", valueExpression: "object.items.exists(x, x == 'i0') ? 'yes' : 'no'" }],
  },
});
const input = configMapInput({ items });

const run = async (minCost: number) => {
  offloadSettings.minCost = minCost;
  return validatePolicy(policy, input, new CostPacer(Number.POSITIVE_INFINITY));
};

describe("admission expressions on a rule worker", () => {
  it("a policy's decisions, messages, errors and annotations are the same on a worker and inline", async () => {
    const offloaded = await run(0);
    const inline = await run(Number.POSITIVE_INFINITY);
    expect(offloaded).toEqual(inline);
    expect(offloaded.decisions.map((d) => [d.index, d.action, d.message])).toEqual([
      [0, "deny", "dups in 60 of 60"],
      [
        1,
        "deny",
        "expression 'object.items.all(x, int(x) > 0)' resulted in error: int() type error: cannot convert to int",
      ],
      [3, "deny", "failed expression: variables.wait > duration('1s') && object.items.all(x, x.size() < 2)"],
      [
        4,
        "deny",
        "failed expression: authorizer.requestResource.check('create').allowed() && size(object.items) < 10",
      ],
    ]);
    expect([...offloaded.auditAnnotations]).toEqual([["first", "yes"]]);
  });

  it("the event loop is free while an offloaded expression runs, and held while an inline one does", async () => {
    const turned = async (minCost: number) => {
      let ran = false;
      setImmediate(() => {
        ran = true;
      });
      await run(minCost);
      return ran;
    };
    expect(await turned(0)).toBe(true);
    expect(await turned(Number.POSITIVE_INFINITY)).toBe(false);
  });
});
