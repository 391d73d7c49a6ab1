/** The compiled form of a CRD schema's rules: a tree that mirrors the schema where rules are. */
import type { JsonSchema } from "../crd/json-schema.js";
import type { Program } from "./program.js";
import type { CelDecl } from "./schema-types.js";

/** One `x-kubernetes-validations` entry as written in the CRD. */
export interface ValidationRule {
  readonly rule?: string;
  readonly message?: string;
  readonly messageExpression?: string;
  readonly reason?: string;
  readonly fieldPath?: string;
  readonly optionalOldSelf?: boolean;
}

export interface CompiledRule {
  readonly source: ValidationRule;
  readonly program: Program;
  readonly message?: Program;
  readonly usesOldSelf: boolean;
  /** fieldPath as apimachinery prints it (`spec.foo`, `[key]`), appended to the node's path. */
  readonly fieldPath: string;
}

export interface RuleNode {
  readonly schema: JsonSchema;
  readonly decl: CelDecl;
  readonly rules: readonly CompiledRule[];
  readonly properties: ReadonlyMap<string, RuleNode>;
  readonly additionalProperties?: RuleNode;
  readonly items?: RuleNode;
}

/** `failed rule: …` text of a rule: its message, else its trimmed expression (upstream's ruleErrorString). */
export function ruleErrorString(r: ValidationRule): string {
  return r.message ? r.message.trim() : (r.rule ?? "").trim();
}
