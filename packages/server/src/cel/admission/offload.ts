/**
 * Which admission expressions run on a CEL rule worker (rules-pool.ts), and sending one there: an
 * expression estimated above the CRD rules' inline limit, which does not read `authorizer` (its
 * checks answer for the request's user, which stays on the event loop), and whose policy variables
 * it reads hold plain data (a structured clone keeps them as they are). Then the event loop is
 * free while it runs, instead of held for one expression (up to 10⁶ cost units, tens of ms;
 * docs/divergences.md CEL9). Cheaper ones stay inline: the round trip clones the object.
 */
import { type Program, visit } from "../program.js";
import { evaluateExpressionOffThread, INLINE_COST_LIMIT } from "../rules-pool.js";
import type { AdmissionVariables } from "./environment.js";
import type { ExpressionReply } from "./offload-job.js";
import type { AdmissionInput } from "./values.js";
import type { VariableDecls } from "./variables.js";

/** Above this estimate an expression that can travel runs on a worker; settable for tests and benches. */
export const offloadSettings = { minCost: INLINE_COST_LIMIT };

function readsAuthorizer(program: Program): boolean {
  let reads = false;
  visit(program.ast, (n) => {
    if (n.op === "id" && n.args === "authorizer") reads = true;
  });
  return reads;
}

/** Whether a structured clone keeps `v` as the evaluator sees it (JSON-like data, bigints, dates). */
function plain(v: unknown): boolean {
  if (v === null || typeof v !== "object") return typeof v !== "function" && typeof v !== "symbol";
  if (Array.isArray(v)) return v.every(plain);
  if (v instanceof Date) return true;
  const proto = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && Object.values(v).every(plain);
}

/** What the worker compiles an expression against, and its key there (one per compiled program). */
export interface Offloadable {
  readonly program: Program;
  readonly source: string;
  readonly opts: AdmissionVariables;
  readonly decls: VariableDecls | undefined;
}

const keys = new WeakMap<Program, string>();
let next = 0;

function keyOf(program: Program): string {
  let key = keys.get(program);
  if (key === undefined) {
    key = `admission-${next++}`;
    keys.set(program, key);
  }
  return key;
}

/** Whether an expression of this estimated cost, reading these variable values, goes to a worker. */
export function offloads(e: Offloadable, cost: number, variables: Record<string, unknown>): boolean {
  return cost > offloadSettings.minCost && !readsAuthorizer(e.program) && plain(variables);
}

/** Evaluates on a rule worker; a worker that dies or hangs fails the request with a 500. */
export function evaluateOffThread(
  e: Offloadable,
  input: AdmissionInput,
  variables: Record<string, unknown>,
): Promise<ExpressionReply> {
  const compile = { source: e.source, opts: e.opts, decls: e.decls };
  return evaluateExpressionOffThread(keyOf(e.program), compile, input, variables);
}
