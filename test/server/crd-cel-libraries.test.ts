/**
 * The Kubernetes CEL libraries in CRD validation rules, on both targets: semver, named formats,
 * strings.quote, the IP and CIDR library, a `format: duration` string as a CEL duration and has()
 * on an indexed selection (rules in crd-cel-library-cases.ts); wrong argument types and costly
 * comparisons refused when the CRD is written; rules inside allOf/anyOf/not refused as
 * non-structural.
 */
import { describe, expect, it } from "vitest";
import { OUTCOMES, REFUSED, SPEC_SCHEMA } from "./crd-cel-library-cases.js";
import { expectCompilationErrors, messages, useRuleSuite } from "./crd-cel-support.js";

type Cause = { field: string; reason: string; message: string };

const { create, writeCrd } = useRuleSuite("cellib", "Gauge", "gauges", SPEC_SCHEMA);

/** Writes (dry run) a CRD whose spec carries the given rules, for what the apiserver says of them. */
const writeRules = (rules: string[], properties: Record<string, unknown> = SPEC_SCHEMA.properties) =>
  writeCrd({ type: "object", properties, "x-kubernetes-validations": rules.map((rule) => ({ rule })) });

describe("Kubernetes CEL libraries in CRD rules", () => {
  it("holds every constant expression of the semver, format, strings, IP and CIDR libraries", async () => {
    const res = await create({});
    expect(res.status, res.text).toBe(201);
  });

  it.each(OUTCOMES)("$name", async ({ spec, failures }) => {
    const res = await create(spec);
    expect(res.status, res.text).toBe(failures.length === 0 ? 201 : 422);
    expect(messages(res)).toEqual(failures);
  });

  it("refuses library calls with wrong argument types, and string functions outside version 2", async () => {
    expectCompilationErrors(await writeRules(REFUSED.map(([rule]) => rule)), REFUSED);
  });

  it("estimates != on library values as unbounded and == as one operation, as upstream", async () => {
    const over = await writeRules(["!has(self.addr) || ip(self.addr) != ip('::1')"]);
    expect(over.status).toBe(422);
    expect(messages(over)[0]).toMatch(
      /^Forbidden: estimated rule cost exceeds budget by factor of more than 100x/,
    );
    const under = await writeRules([
      "!has(self.addr) || ip(self.addr) == ip('::1')",
      "!has(self.name) || !format.dns1123Subdomain().validate(self.name).hasValue()",
    ]);
    expect(under.status, under.text).toBe(201);
  });

  it("refuses validation rules inside allOf, anyOf and not as non-structural", async () => {
    const rules = [{ rule: "self.size() > 1" }];
    const res = await writeCrd({
      type: "object",
      properties: { s: { type: "string" } },
      allOf: [{ properties: { s: { "x-kubernetes-validations": rules } } }],
      anyOf: [{ "x-kubernetes-validations": rules }],
      not: { "x-kubernetes-validations": rules },
    });
    expect(res.status).toBe(422);
    const at = "spec.validation.openAPIV3Schema.properties[spec]";
    expect((res.json.details?.causes ?? []).map((c: Cause) => [c.field, c.message])).toEqual([
      [`${at}.allOf[0].properties[s].x-kubernetes-validations`, "Forbidden: must be empty to be structural"],
      [`${at}.anyOf[0].x-kubernetes-validations`, "Forbidden: must be empty to be structural"],
      [`${at}.not.x-kubernetes-validations`, "Forbidden: must be empty to be structural"],
    ]);
  });
});
