/**
 * The CEL layer of the server: CRD validation rules today, admission policies
 * next. The CRD code calls two things: the rule errors of a schema when a CRD is
 * written, and a validator of custom resources built once per CRD generation.
 */
import type { FieldError } from "../api/status.js";
import type { JsonSchema } from "../crd/json-schema.js";
import { compileSchemaRules } from "./compile-rules.js";
import { INLINE_COST_LIMIT, validateRulesOffThread } from "./rules-pool.js";
import { validateRulesWithin } from "./validate-rules.js";

export { compileSchemaRules } from "./compile-rules.js";
export { useRuleWorkers } from "./rules-pool.js";

/** Error types that stop CEL rules from running (upstream's hasBlockingErr), and our spelling of TooMany. */
const BLOCKING = new Set([
  "FieldValueNotSupported",
  "FieldValueRequired",
  "FieldValueTooLong",
  "FieldValueTypeInvalid",
]);
const isBlocking = (e: FieldError) =>
  BLOCKING.has(e.type) ||
  (e.type === "FieldValueInvalid" && / should have at most \d+ (items|properties)$/.test(e.detail));

/** The rule failures of an object: at once, or later when its rules are expensive (rules-pool.ts). */
export type RuleValidator = (
  obj: unknown,
  old: unknown,
  schemaErrors: readonly FieldError[],
) => FieldError[] | Promise<FieldError[]>;

let validators = 0;

/** The rule validator of a version's schema (compiled once per schema object); none when it has no rules. */
export function ruleValidator(schema: JsonSchema): RuleValidator | undefined {
  const root = compileSchemaRules(schema, "").root;
  if (!root) return undefined;
  // Names this schema's programs in the workers, which compile them once per worker.
  const key = String(++validators);
  return (obj, old, schemaErrors) => {
    if (schemaErrors.some(isBlocking))
      return [
        {
          type: "FieldValueInvalid",
          field: "<nil>",
          // Upstream's value is a nil interface, printed as null (unquoted).
          value: null,
          detail:
            "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
        },
      ];
    return (
      validateRulesWithin(root, obj, old, INLINE_COST_LIMIT) ?? validateRulesOffThread(key, schema, obj, old)
    );
  };
}
