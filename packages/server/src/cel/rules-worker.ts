/**
 * Entry of a CEL rule worker thread (rules-pool.ts): validates one object against a CRD version's
 * rules per message, with the programs compiled here from the schema the first time a key is seen
 * (the pool sends a schema only to a worker that lacks it, and mirrors this cache's resets); or
 * one admission policy expression (admission/offload-job.ts), whose programs share that cache's key
 * space and resets.
 */
import { parentPort } from "node:worker_threads";
import { answer } from "../api/worker-pool.js";
import type { JsonSchema } from "../crd/json-schema.js";
import { type ExpressionJob, evaluateExpressionJob, forgetExpressions } from "./admission/offload-job.js";
import { compileSchemaRules } from "./compile-rules.js";
import type { RuleNode } from "./rule-tree.js";
import { validateRules } from "./validate-rules.js";

export interface RulesJob {
  readonly kind?: undefined;
  readonly id: number;
  /** The compiled validator's key (one per CRD version's schema object, rules-pool.ts). */
  readonly key: string;
  /** Sent when this worker does not hold the key's programs yet. */
  readonly schema?: JsonSchema;
  /** Forget every program held before compiling this one. */
  readonly reset?: boolean;
  readonly obj: unknown;
  readonly old: unknown;
}

const programs = new Map<string, RuleNode | undefined>();

function rootOf(job: RulesJob): RuleNode | undefined {
  if (job.schema) programs.set(job.key, compileSchemaRules(job.schema, "").root);
  if (!programs.has(job.key)) throw new Error(`no programs for rule validator ${job.key}`);
  return programs.get(job.key);
}

const port = parentPort;
if (port)
  port.on("message", (job: RulesJob | ExpressionJob) =>
    answer(port, job.id, () => {
      if (job.reset) {
        programs.clear();
        forgetExpressions();
      }
      if (job.kind === "admission") return evaluateExpressionJob(job);
      const root = rootOf(job);
      return root ? validateRules(root, job.obj, job.old) : [];
    }),
  );
