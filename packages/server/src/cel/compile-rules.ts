/**
 * Compiles every `x-kubernetes-validations` rule of a CRD version's schema,
 * once per schema object (a CRD generation's schema is a fresh object, so the
 * cache is per generation), and reports what the apiserver refuses when the CRD
 * is written: rules that do not compile or are not bool, messageExpressions that
 * do not compile or are not string, unknown reasons, invalid fieldPaths, and
 * rules whose estimated cost is over budget.
 */
import type { Environment } from "@marcbachmann/cel-js";
import type { FieldError } from "../api/status.js";
import { GoSyntax } from "../api/status.js";
import {
  additionalPropertiesOf,
  isObject,
  itemsOf,
  type JsonSchema,
  propertiesOf,
} from "../crd/json-schema.js";
import { err, key } from "../crd/schema-paths.js";
import { costOf, overBudget, STATIC_CRD_LIMIT, STATIC_RULE_LIMIT } from "./cost.js";
import { baseEnvironment } from "./environment.js";
import { normalizeFieldPath } from "./field-path.js";
import { compileExpression, type Program, visit } from "./program.js";
import type { CompiledRule, RuleNode, ValidationRule } from "./rule-tree.js";
import { type CelDecl, SchemaTypes } from "./schema-types.js";
import { shapeOfSchema, shapeWithMeta } from "./sizes.js";

export interface CompiledSchema {
  /** The root of the rule tree; undefined when the schema has no rules. */
  readonly root?: RuleNode;
  /** What the CRD's validation reports, with paths relative to the schema (prefix them). */
  readonly errors: readonly FieldError[];
}

const REASONS = ["FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"];

const cache = new WeakMap<JsonSchema, { base: string; compiled: CompiledSchema }>();

/** The compiled rules of a version's openAPIV3Schema; errors carry paths under `base`. */
export function compileSchemaRules(schema: JsonSchema, base: string): CompiledSchema {
  const hit = cache.get(schema);
  if (hit && hit.base === base) return hit.compiled;
  if (!hasRules(schema)) return { errors: [] };
  const env = baseEnvironment();
  const types = new SchemaTypes(env, "object");
  const rootDecl = types.declare(schema, true);
  declareAll(types, schema);
  const compiler = new Compiler(env, types, schema);
  const root = compiler.node(schema, rootDecl, base, 1);
  const errors = [...compiler.errors];
  if (compiler.total > STATIC_CRD_LIMIT) {
    for (const c of compiler.mostExpensive)
      errors.push(
        err(
          "FieldValueForbidden",
          c.field,
          "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema",
        ),
      );
    errors.push(
      err(
        "FieldValueForbidden",
        base,
        overBudget(
          "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema",
          compiler.total,
          STATIC_CRD_LIMIT,
        ),
      ),
    );
  }
  const compiled = root ? { root, errors } : { errors };
  cache.set(schema, { base, compiled });
  return compiled;
}

export function hasRules(s: JsonSchema | undefined): boolean {
  if (!s) return false;
  if (Array.isArray(s["x-kubernetes-validations"]) && s["x-kubernetes-validations"].length > 0) return true;
  if (hasRules(itemsOf(s)) || hasRules(additionalPropertiesOf(s))) return true;
  return Object.values(propertiesOf(s)).some(hasRules);
}

/** Registers every node's type before any rule is compiled (environments lock once cloned). */
function declareAll(types: SchemaTypes, s: JsonSchema): void {
  types.declare(s);
  const items = itemsOf(s);
  if (items) declareAll(types, items);
  const additional = additionalPropertiesOf(s);
  if (additional) declareAll(types, additional);
  for (const p of Object.values(propertiesOf(s))) declareAll(types, p);
}

/** JSON of Go's json.Marshal, which escapes <, > and & in strings. */
const goJson = (v: unknown) =>
  JSON.stringify(v).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);

/** The rule as upstream shows it in a compile error: its Go struct as JSON. */
function goRule(r: ValidationRule): GoSyntax {
  return new GoSyntax(
    goJson({
      Rule: r.rule ?? "",
      Message: r.message ?? "",
      MessageExpression: r.messageExpression ?? "",
      Reason: r.reason ?? null,
      FieldPath: r.fieldPath ?? "",
      OptionalOldSelf: r.optionalOldSelf ?? null,
    }),
  );
}

function usesOldSelf(p: Program): boolean {
  let found = false;
  visit(p.ast, (n) => {
    if (n.op === "id" && n.args === "oldSelf") found = true;
  });
  return found;
}

class Compiler {
  readonly errors: FieldError[] = [];
  total = 0;
  /** The (at most four) costliest expressions of at least 1% of the CRD limit, named when the total is over. */
  readonly mostExpensive: { field: string; cost: number }[] = [];

  constructor(
    private readonly env: Environment,
    private readonly types: SchemaTypes,
    /** The resource root, whose `self` also has apiVersion, kind and metadata. */
    private readonly root: JsonSchema,
  ) {}

  node(s: JsonSchema, decl: CelDecl, path: string, cardinality: number): RuleNode | undefined {
    if (!hasRules(s)) return undefined;
    const raw = Array.isArray(s["x-kubernetes-validations"]) ? s["x-kubernetes-validations"] : [];
    const rules = raw.length > 0 ? this.rules(s, decl, raw, path, cardinality) : [];
    const shape = shapeOfSchema(s);
    const properties = new Map<string, RuleNode>();
    for (const [k, p] of Object.entries(propertiesOf(s))) {
      const child = this.node(p, this.types.declare(p), key(path, k), cardinality);
      if (child) properties.set(k, child);
    }
    const items = itemsOf(s);
    const additional = additionalPropertiesOf(s);
    const itemNode =
      items && this.node(items, this.types.declare(items), `${path}.items`, cardinality * shape.size);
    const addNode =
      additional &&
      this.node(
        additional,
        this.types.declare(additional),
        `${path}.additionalProperties`,
        cardinality * shape.size,
      );
    return {
      schema: s,
      decl,
      rules,
      properties,
      ...(itemNode ? { items: itemNode } : {}),
      ...(addNode ? { additionalProperties: addNode } : {}),
    };
  }

  /** Adds an expression's cost to the CRD's total, as upstream's TotalCost observes it. */
  private observe(field: string, cost: number): void {
    this.total += cost;
    if (cost < STATIC_CRD_LIMIT / 100) return;
    this.mostExpensive.push({ field, cost });
    this.mostExpensive.sort((a, b) => b.cost - a.cost);
    if (this.mostExpensive.length > 4) this.mostExpensive.pop();
  }

  private rules(
    s: JsonSchema,
    decl: CelDecl,
    raw: unknown[],
    path: string,
    cardinality: number,
  ): CompiledRule[] {
    const out: CompiledRule[] = [];
    const withOld = this.env
      .clone()
      .registerVariable("self", decl.type)
      .registerVariable("oldSelf", decl.type);
    const optionalOld = this.env
      .clone()
      .registerVariable("self", decl.type)
      .registerVariable("oldSelf", `optional<${decl.type}>`);
    raw.forEach((entry, i) => {
      const r = (isObject(entry) ? entry : {}) as ValidationRule;
      const at = `${path}.x-kubernetes-validations[${i}]`;
      const compiled = this.rule(
        s,
        r,
        r.optionalOldSelf === true ? optionalOld : withOld,
        withOld,
        at,
        cardinality,
      );
      if (compiled) out.push(compiled);
    });
    return out;
  }

  private rule(
    s: JsonSchema,
    r: ValidationRule,
    env: Environment,
    messageEnv: Environment,
    at: string,
    cardinality: number,
  ): CompiledRule | undefined {
    const errs = this.errors;
    const before = errs.length;
    if (r.reason !== undefined && !REASONS.includes(r.reason))
      errs.push(
        err(
          "FieldValueNotSupported",
          `${at}.reason`,
          `supported values: ${REASONS.map((x) => `"${x}"`).join(", ")}`,
          r.reason,
        ),
      );
    let fieldPath = "";
    if (r.fieldPath) {
      try {
        fieldPath = normalizeFieldPath(r.fieldPath, s);
      } catch (e) {
        errs.push(
          err(
            "FieldValueInvalid",
            `${at}.fieldPath`,
            `fieldPath must be a valid path: ${(e as Error).message}`,
            r.fieldPath,
          ),
        );
      }
    }
    if (!r.rule || r.rule.trim() === "") {
      errs.push(err("FieldValueRequired", `${at}.rule`, "rule is not specified"));
      return undefined;
    }
    const c = compileExpression(env, r.rule);
    if (!c.ok) errs.push(err("FieldValueInvalid", `${at}.rule`, `compilation failed: ${c.error}`, goRule(r)));
    else if (c.program.type !== "bool")
      errs.push(err("FieldValueInvalid", `${at}.rule`, "cel expression must evaluate to a bool", goRule(r)));
    let message: Program | undefined;
    if (r.messageExpression) {
      const m = compileExpression(messageEnv, r.messageExpression);
      if (!m.ok)
        errs.push(
          err(
            "FieldValueInvalid",
            `${at}.messageExpression`,
            `messageExpression compilation failed: ${m.error}`,
            goRule(r),
          ),
        );
      else if (m.program.type !== "string")
        errs.push(
          err(
            "FieldValueInvalid",
            `${at}.messageExpression`,
            "messageExpression must evaluate to a string",
            goRule(r),
          ),
        );
      else message = m.program;
    }
    const shape = s === this.root ? shapeWithMeta(s) : shapeOfSchema(s);
    if (c.ok && c.program.type === "bool") {
      const cost = costOf(c.program.ast, shape) * cardinality;
      if (cost > STATIC_RULE_LIMIT)
        errs.push(
          err(
            "FieldValueForbidden",
            `${at}.rule`,
            overBudget("estimated rule cost", cost, STATIC_RULE_LIMIT),
          ),
        );
      this.observe(`${at}.rule`, cost);
    }
    if (message) {
      // Upstream does not multiply a messageExpression's cost by the rule's cardinality.
      const cost = costOf(message.ast, shape);
      if (cost > STATIC_RULE_LIMIT)
        errs.push(
          err(
            "FieldValueForbidden",
            `${at}.messageExpression`,
            overBudget("estimated messageExpression cost", cost, STATIC_RULE_LIMIT),
          ),
        );
      this.observe(`${at}.messageExpression`, cost);
    }
    if (!c.ok || c.program.type !== "bool") return undefined;
    if (errs.length > before) return undefined;
    return {
      source: r,
      program: c.program,
      ...(message ? { message } : {}),
      usesOldSelf: usesOldSelf(c.program),
      fieldPath,
    };
  }
}
