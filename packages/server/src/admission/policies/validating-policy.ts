/**
 * A ValidatingAdmissionPolicy compiled for admission (once per generation), and its evaluation
 * for one request and one param, as upstream's validator does it: matchConditions first (a false
 * one skips the policy), then every validation — a false one is a Deny decision with the message
 * from messageExpression (trimmed, one line, at most 5 KiB), else `message`, else `failed
 * expression: …`, and the reason (default Invalid); an evaluation error is a decision by the
 * failurePolicy — then the audit annotations (string or null values; others are errors). The
 * pacer gives the event loop back between expensive expressions, and the expensive ones that can
 * travel run on a rule worker (the same answers, later).
 */
import {
  AdmissionActivation,
  type AdmissionCompiled,
  type AdmissionInput,
  type CompiledMatchConditions,
  CostPacer,
  compileAdmission,
  compileMatchConditions,
  compileVariables,
  type NamedExpression,
  type Outcome,
  type VariableDecls,
} from "../../cel/admission/index.js";
import { isObj, namedExpressions, type Obj, objectsOf } from "./json.js";

const MAX_MESSAGE_BYTES = 5 * 1024;

export type FailurePolicy = "Fail" | "Ignore";

interface CompiledValidation {
  readonly expression: AdmissionCompiled;
  readonly message: string;
  readonly messageExpression?: AdmissionCompiled;
  readonly reason?: string;
}

interface CompiledAuditAnnotation {
  readonly key: string;
  readonly value: AdmissionCompiled;
}

export interface CompiledValidatingPolicy {
  readonly name: string;
  readonly spec: Obj;
  readonly failurePolicy: FailurePolicy;
  readonly hasParams: boolean;
  readonly matchConditions?: CompiledMatchConditions;
  readonly variables: readonly NamedExpression[];
  /** The variables' declarations the other expressions were compiled with. */
  readonly decls: VariableDecls | undefined;
  readonly validations: readonly CompiledValidation[];
  readonly auditAnnotations: readonly CompiledAuditAnnotation[];
}

/** One outcome of a validation: a denial (Deny decision) or an error handled by the failure policy. */
export interface Decision {
  readonly action: "admit" | "deny";
  readonly message: string;
  readonly reason?: string;
  readonly index: number;
  /** An audit annotation's error: it denies whatever the binding's validationActions say. */
  readonly annotation?: boolean;
}

export interface ValidateResult {
  readonly decisions: readonly Decision[];
  readonly auditAnnotations: ReadonlyMap<string, string>;
}

export function compileValidatingPolicy(policy: Obj): CompiledValidatingPolicy {
  const meta = isObj(policy.metadata) ? policy.metadata : {};
  const spec = isObj(policy.spec) ? policy.spec : {};
  const hasParams = isObj(spec.paramKind);
  const composed = compileVariables(namedExpressions(spec.variables), {
    params: hasParams,
    authorizer: true,
  });
  const vars = { params: hasParams, authorizer: true, variables: composed.decls } as const;
  const conditions = namedExpressions(spec.matchConditions);
  const opt = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v : undefined);
  return {
    name: String(meta.name ?? ""),
    spec,
    failurePolicy: spec.failurePolicy === "Ignore" ? "Ignore" : "Fail",
    hasParams,
    ...(conditions.length > 0
      ? { matchConditions: compileMatchConditions(conditions, { params: hasParams }) }
      : {}),
    variables: composed.variables,
    decls: composed.decls,
    validations: objectsOf(spec.validations).map((v) => {
      const messageExpression = opt(v.messageExpression);
      return {
        expression: compileAdmission(String(v.expression ?? ""), { ...vars, returnTypes: ["bool"] }),
        message: typeof v.message === "string" ? v.message.trim() : "",
        ...(messageExpression
          ? {
              messageExpression: compileAdmission(messageExpression, {
                ...vars,
                authorizer: false,
                returnTypes: ["string"],
              }),
            }
          : {}),
        ...(typeof v.reason === "string" ? { reason: v.reason } : {}),
      };
    }),
    auditAnnotations: objectsOf(spec.auditAnnotations).map((a) => ({
      key: String(a.key ?? ""),
      value: compileAdmission(String(a.valueExpression ?? "").trim(), {
        ...vars,
        returnTypes: ["string", "null"],
      }),
    })),
  };
}

/** cel-go's name of a value's type, for messages. */
function celTypeName(v: unknown): string {
  if (typeof v === "bigint") return "int";
  if (typeof v === "number") return "double";
  if (typeof v === "boolean") return "bool";
  if (Array.isArray(v)) return "list";
  return "map";
}

/** The message of a failed validation: messageExpression's, else the static one, else the expression. */
async function failureMessage(
  v: CompiledValidation,
  evaluate: (c: AdmissionCompiled) => Promise<Outcome>,
): Promise<string> {
  if (v.messageExpression) {
    const out = await evaluate(v.messageExpression);
    if (out.ok && typeof out.value === "string") {
      const m = out.value.trim();
      if (m !== "" && !m.includes("\n") && Buffer.byteLength(m) <= MAX_MESSAGE_BYTES) return m;
    }
  }
  if (v.message !== "") return v.message;
  return `failed expression: ${v.expression.source.trim()}`;
}

/** Evaluates the policy for one request and param (`pacer`: shared by the request's policies). */
export async function validatePolicy(
  p: CompiledValidatingPolicy,
  input: AdmissionInput,
  pacer: CostPacer = new CostPacer(),
): Promise<ValidateResult> {
  const onError = p.failurePolicy === "Ignore" ? "admit" : "deny";
  const none: ValidateResult = { decisions: [], auditAnnotations: new Map() };
  const vars = { params: p.hasParams, authorizer: true } as const;
  if (p.matchConditions) {
    const matched = await pacer.match(p.matchConditions, input, p.failurePolicy, p.hasParams);
    if ("error" in matched)
      return { ...none, decisions: [{ action: onError, message: matched.error, index: 0 }] };
    if (!matched.matches) return none;
  }
  const act = new AdmissionActivation(input, vars, p.variables);
  // Expensive validations, messages and annotations run on a rule worker when they can travel.
  const evaluate = (c: AdmissionCompiled) => pacer.run(act, () => act.evaluateOffThread(c, p.decls));
  const decisions: Decision[] = [];
  for (const [index, v] of p.validations.entries()) {
    const out = await evaluate(v.expression);
    if (!out.ok && out.outOfBudget)
      return { ...none, decisions: [{ action: onError, message: out.error, index }] };
    if (!out.ok) decisions.push({ action: onError, message: out.error, index });
    else if (out.value !== true)
      decisions.push({
        action: "deny",
        message: await failureMessage(v, evaluate),
        reason: v.reason ?? "Invalid",
        index,
      });
  }
  const annotations = new Map<string, string>();
  for (const [index, a] of p.auditAnnotations.entries()) {
    const out = await evaluate(a.value);
    if (!out.ok) {
      decisions.push({ action: onError, message: out.error, index, annotation: true });
      continue;
    }
    if (typeof out.value === "string") {
      if (out.value.trim() !== "") annotations.set(a.key, out.value.trim());
    } else if (out.value !== null) {
      const message = `valueExpression '${a.value.source}' resulted in unsupported return type: ${celTypeName(out.value)}. Return type must be either string or null.`;
      decisions.push({ action: onError, message, index, annotation: true });
    }
  }
  return { decisions, auditAnnotations: annotations };
}
