/**
 * One admission expression evaluated on a CEL rule worker thread (rules-worker.ts): the job carries
 * the expression with what it compiles against, the request's plain input and the values of the
 * policy variables it reads (already bound on the event loop); the worker compiles it once per key
 * and answers its value or its error's text. What cannot travel stays on the event loop: an
 * expression that reads `authorizer` is never sent (offload.ts).
 */
import type { Program } from "../program.js";
import { compileAdmission } from "./compile.js";
import type { AdmissionVariables } from "./environment.js";
import { evaluationText } from "./evaluation-text.js";
import { type AdmissionInput, activationValues } from "./values.js";
import type { VariableDecls } from "./variables.js";

export interface ExpressionJob {
  readonly kind: "admission";
  readonly id: number;
  /** The compiled program's key on the worker (rules-pool.ts mirrors which keys a worker holds). */
  readonly key: string;
  /** Sent when the worker does not hold the key's program yet. */
  readonly compile?: ExpressionSource;
  /** Forget every program held before compiling this one. */
  readonly reset?: boolean;
  readonly input: AdmissionInput;
  readonly variables: Record<string, unknown>;
}

export interface ExpressionSource {
  readonly source: string;
  readonly opts: AdmissionVariables;
  readonly decls: VariableDecls | undefined;
}

export type ExpressionReply =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: string };

interface Held {
  readonly program: Program;
  readonly opts: AdmissionVariables;
}

/** Compiled on this worker, by key. */
const held = new Map<string, Held>();

/** Forgets every program held (the pool's reset of this worker's cache). */
export function forgetExpressions(): void {
  held.clear();
}

function programOf(job: ExpressionJob): Held {
  const c = job.compile;
  if (c) {
    const compiled = compileAdmission(c.source, {
      ...c.opts,
      ...(c.decls ? { variables: c.decls } : {}),
      returnTypes: ["dyn"],
    });
    if (!compiled.ok) throw new Error(`admission expression ${job.key} does not compile: ${compiled.detail}`);
    held.set(job.key, { program: compiled.program, opts: c.opts });
  }
  const h = held.get(job.key);
  if (!h) throw new Error(`no program for admission expression ${job.key}`);
  return h;
}

/** Evaluates one job on this thread; the error is cel-go's text of the evaluator's. */
export function evaluateExpressionJob(job: ExpressionJob): ExpressionReply {
  const { program, opts } = programOf(job);
  const values = activationValues(job.input, opts, job.variables);
  try {
    return { ok: true, value: program.run(values) };
  } catch (e) {
    return { ok: false, error: evaluationText(e) };
  }
}
