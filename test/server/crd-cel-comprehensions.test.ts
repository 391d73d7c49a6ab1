/**
 * cel-go's two-variable comprehensions (all, exists, existsOne/exists_one, transformList,
 * transformMap, transformMapEntry), the lists extension's sortBy and names in backticks, in CRD
 * validation rules on both targets (rules in crd-cel-comprehension-cases.ts): objects that pass
 * or fail them with each rule's message or evaluation error, misuses refused when the CRD is
 * written with cel-go's message and position, and the cost of a comprehension over an unbounded
 * list deciding, as upstream, whether a rule is accepted.
 */
import { describe, expect, it } from "vitest";
import { OUTCOMES, REFUSED, SPEC_RULES, SPEC_SCHEMA } from "./crd-cel-comprehension-cases.js";
import { expectCompilationErrors, messages, useRuleSuite } from "./crd-cel-support.js";

const { create, writeCrd } = useRuleSuite("cel2var", "Pair", "pairs", {
  ...SPEC_SCHEMA,
  "x-kubernetes-validations": SPEC_RULES,
});

/** Writes (dry run) a CRD whose spec carries the given rules, for what the apiserver says of them. */
const writeRules = (rules: string[]) =>
  writeCrd({ ...SPEC_SCHEMA, "x-kubernetes-validations": rules.map((rule) => ({ rule })) });

describe("two-variable comprehensions and sortBy in CRD rules", () => {
  it.each(OUTCOMES)("$name", async ({ spec, failures }) => {
    const res = await create(spec);
    expect(res.status, res.text).toBe(failures.length === 0 ? 201 : 422);
    expect(messages(res)).toEqual(failures);
  });

  it("refuses misused macros with cel-go's message at cel-go's position", async () => {
    expectCompilationErrors(await writeRules(REFUSED.map(([rule]) => rule)), REFUSED);
  });

  it("estimates comprehensions by their range and body, their results' items as unbounded, sortBy as quadratic", async () => {
    const accepted = await writeRules([
      "self.ul.all(i, v, v.size() > 2)",
      "self.names.join(', ') != ''",
      "self.l.transformList(i, v, v).sum() > 0 && self.m.transformMap(k, v, v).all(k, v, v > 0)",
      "self.l.sortBy(e, e).all(x, x > 0)",
    ]);
    expect(accepted.status, accepted.text).toBe(201);
    const refused = [
      "self.ul.transformList(i, v, v + v).size() > 2",
      "self.ul.sortBy(e, e).size() > 2",
      // A comprehension's items have no size bound in the static estimate, whatever the range's.
      "self.names.transformList(i, v, v).join(', ') != ''",
      "self.names.map(v, v).join(', ') != ''",
    ];
    for (const rule of refused) {
      const res = await writeRules([rule]);
      expect(res.status, rule).toBe(422);
      expect(messages(res)[0]).toMatch(
        /^Forbidden: estimated rule cost exceeds budget by factor of more than 100x/,
      );
    }
  });
});
