/**
 * CEL for admission: the environment of admission expressions (object, oldObject, request,
 * params, namespaceObject, variables, authorizer), their compilation with upstream's error
 * wording, budgeted evaluation for one request, and matchConditions (shared by admission
 * policies and webhooks).
 */
export {
  type AdmissionCompiled,
  type CompiledVariables,
  type CompileOptions,
  compileAdmission,
  compileVariables,
  type NamedExpression,
} from "./compile.js";
export type { AdmissionVariables } from "./environment.js";
export {
  AdmissionActivation,
  type AdmissionInput,
  evaluationText,
  OUT_OF_BUDGET,
  type Outcome,
} from "./evaluate.js";
export {
  type CompiledMatchConditions,
  compileMatchConditions,
  MATCH_CONDITIONS_BUDGET,
  type MatchCondition,
  type MatchResult,
} from "./match-conditions.js";
export { CostPacer } from "./pacer.js";
export type { AdmissionRequestInput } from "./request.js";
export { rewriteStructLiterals } from "./struct-literals.js";
export { type ExpressionWarning, typeCheckValidatingPolicy } from "./type-check.js";
export type { VariableDecls } from "./variables.js";
