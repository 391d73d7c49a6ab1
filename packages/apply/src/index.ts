/**
 * @kubesdk/apply — server-side apply as a first-class operation: typed apply
 * configurations, conflict policies, parsed conflicts, and extraction of what
 * a field manager owns.
 */

export {
  type ApplyPolicyOptions,
  type ApplyRequest,
  type ApplyResult,
  applyWithPolicy,
  type ConflictPolicy,
} from "./apply.js";
export type { ApplyConfiguration, DeepPartial, ObjectWithTypeMeta } from "./apply-configuration.js";
export {
  type ApplyConflict,
  ApplyConflictError,
  asApplyConflict,
  parseApplyConflicts,
  parseManager,
} from "./conflicts.js";
export { type ExtractOptions, extract } from "./extract.js";
export { FieldPathError, parseFieldPath, removePath } from "./field-path.js";
