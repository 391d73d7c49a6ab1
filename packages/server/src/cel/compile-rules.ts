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
/** Schemas known to carry no rules: finding that out walks the whole schema. */
const withoutRules = new WeakSet<JsonSchema>();

/** The compiled rules of a version's openAPIV3Schema; errors carry paths under `base`. */
export function compileSchemaRules(schema: JsonSchema, base: string): CompiledSchema {
  const hit = cache.get(schema);
  if (hit && hit.base === base) return hit.compiled;
  if (withoutRules.has(schema)) return { errors: [] };
  if (!hasRules(schema)) {
    withoutRules.add(schema);
    return { errors: [] };
  }
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
  /** See node(): where the rules being compiled may not use oldSelf. */
  private uncorrelatable: string | undefined;

  constructor(
    private readonly env: Environment,
    private readonly types: SchemaTypes,
    /** The resource root, whose `self` also has apiVersion, kind and metadata. */
    private readonly root: JsonSchema,
  ) {}

  /**
   * `uncorrelatable` is the path of the outermost list above this node whose items do not pair with
   * old items (any list but `x-kubernetes-list-type: map`): transition rules are refused there.
   */
  node(
    s: JsonSchema,
    decl: CelDecl,
    path: string,
    cardinality: number,
    uncorrelatable?: string,
  ): RuleNode | undefined {
    if (!hasRules(s)) return undefined;
    const raw = Array.isArray(s["x-kubernetes-validations"]) ? s["x-kubernetes-validations"] : [];
    this.uncorrelatable = uncorrelatable;
    const rules = raw.length > 0 ? this.rules(s, decl, raw, path, cardinality) : [];
    const shape = shapeOfSchema(s);
    const properties = new Map<string, RuleNode>();
    for (const [k, p] of Object.entries(propertiesOf(s))) {
      const child = this.node(p, this.types.declare(p), key(path, k), cardinality, uncorrelatable);
      if (child) properties.set(k, child);
    }
    const items = itemsOf(s);
    const additional = additionalPropertiesOf(s);
    const itemsPair = s["x-kubernetes-list-type"] === "map";
    const itemNode =
      items &&
      this.node(
        items,
        this.types.declare(items),
        `${path}.items`,
        cardinality * shape.size,
        itemsPair ? uncorrelatable : (uncorrelatable ?? path),
      );
    const addNode =
      additional &&
      this.node(
        additional,
        this.types.declare(additional),
        `${path}.additionalProperties`,
        cardinality * shape.size,
        uncorrelatable,
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
    const before = this.errors.length;
    const fieldPath = this.checkReasonAndFieldPath(s, r, at);
    if (!r.rule || r.rule.trim() === "") {
      this.errors.push(err("FieldValueRequired", `${at}.rule`, "rule is not specified"));
      return undefined;
    }
    const c = compileExpression(env, r.rule);
    if (!c.ok)
      this.errors.push(err("FieldValueInvalid", `${at}.rule`, `compilation failed: ${c.error}`, goRule(r)));
    else if (c.program.type !== "bool")
      this.errors.push(
        err("FieldValueInvalid", `${at}.rule`, "cel expression must evaluate to a bool", goRule(r)),
      );
    const message = r.messageExpression ? this.messageExpression(r, messageEnv, at) : undefined;
    const shape = s === this.root ? shapeWithMeta(s) : shapeOfSchema(s);
    const program = c.ok && c.program.type === "bool" ? c.program : undefined;
    if (program)
      this.checkCost(`${at}.rule`, "estimated rule cost", costOf(program.ast, shape) * cardinality);
    // Upstream does not multiply a messageExpression's cost by the rule's cardinality.
    if (message)
      this.checkCost(
        `${at}.messageExpression`,
        "estimated messageExpression cost",
        costOf(message.ast, shape),
      );
    if (program) this.checkOldSelf(r, usesOldSelf(program), at);
    if (!program || this.errors.length > before) return undefined;
    return {
      source: r,
      program,
      ...(message ? { message } : {}),
      usesOldSelf: usesOldSelf(program),
      fieldPath,
    };
  }

  /** Transition rules only where old values pair with new ones; optionalOldSelf only with oldSelf. */
  private checkOldSelf(r: ValidationRule, uses: boolean, at: string): void {
    if (uses && this.uncorrelatable !== undefined)
      this.errors.push(
        err(
          "FieldValueInvalid",
          `${at}.rule`,
          `oldSelf cannot be used on the uncorrelatable portion of the schema within ${this.uncorrelatable}`,
          r.rule,
        ),
      );
    if (!uses && r.optionalOldSelf !== undefined)
      this.errors.push(
        err(
          "FieldValueInvalid",
          `${at}.optionalOldSelf`,
          "may not be set if oldSelf is not used in rule",
          r.optionalOldSelf,
        ),
      );
  }

  /** Checks reason and fieldPath; returns the printed fieldPath ("" when none or invalid). */
  private checkReasonAndFieldPath(s: JsonSchema, r: ValidationRule, at: string): string {
    if (r.reason !== undefined && !REASONS.includes(r.reason))
      this.errors.push(
        err(
          "FieldValueNotSupported",
          `${at}.reason`,
          `supported values: ${REASONS.map((x) => `"${x}"`).join(", ")}`,
          r.reason,
        ),
      );
    if (!r.fieldPath) return "";
    try {
      return normalizeFieldPath(r.fieldPath, s);
    } catch {
      // Upstream does not say why the path is invalid.
      this.errors.push(err("FieldValueInvalid", `${at}.fieldPath`, "must be a valid path", r.fieldPath));
      return "";
    }
  }

  private messageExpression(r: ValidationRule, env: Environment, at: string): Program | undefined {
    const m = compileExpression(env, r.messageExpression ?? "");
    const where = `${at}.messageExpression`;
    if (!m.ok)
      this.errors.push(
        err("FieldValueInvalid", where, `messageExpression compilation failed: ${m.error}`, goRule(r)),
      );
    else if (m.program.type !== "string")
      this.errors.push(
        err("FieldValueInvalid", where, "messageExpression must evaluate to a string", goRule(r)),
      );
    else return m.program;
    return undefined;
  }

  private checkCost(field: string, what: string, cost: number): void {
    if (cost > STATIC_RULE_LIMIT)
      this.errors.push(err("FieldValueForbidden", field, overBudget(what, cost, STATIC_RULE_LIMIT)));
    this.observe(field, cost);
  }
}
