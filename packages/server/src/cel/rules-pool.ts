/**
 * Running an object's CEL rules on worker threads (rules-worker.ts, through api/worker-pool.ts)
 * when they are expensive, so that one request's evaluation does not hold every other client
 * (upstream evaluates each request on its own goroutine; docs/divergences.md CEL9); the same
 * workers run expensive admission policy expressions (admission/offload.ts).
 *
 * Why a pool rather than a turn of the event loop per rule: one rule may cost up to the 10⁶ per-call
 * limit, 20 ms and more of CPU at the limit, and a turn cannot be split inside an evaluation. Cheap
 * rules stay inline: a round trip clones the object both ways, which costs more than they do.
 */
import type { FieldError } from "../api/status.js";
import { errors } from "../api/status.js";
import { startEntry, WorkerPool } from "../api/worker-pool.js";
import type { JsonSchema } from "../crd/json-schema.js";
import type { ExpressionJob, ExpressionReply, ExpressionSource } from "./admission/offload-job.js";
import type { AdmissionInput } from "./admission/values.js";
import type { RulesJob } from "./rules-worker.js";

/**
 * The most estimated cost an object's rules spend inline. About 2 ms of evaluation on the rules of
 * `pnpm bench:isolation --only "CEL rule"` (10⁶ units take 20 ms there); a round trip of a small
 * object to a worker takes a fraction of that.
 */
export const INLINE_COST_LIMIT = 100_000;
/** Rules that have not answered in this long are taken for hung: their worker is ended. */
const TIMEOUT_MS = 30_000;
const WORKER_HEAP_MB = 512;
/** Compiled validators one worker keeps (a mirror of the worker's cache on this side). */
const KEPT_PROGRAMS = 64;

const fromSource = import.meta.url.endsWith(".ts");
const ENTRY = new URL(`./rules-worker.${fromSource ? "ts" : "js"}`, import.meta.url);

let pool: WorkerPool | undefined;
let users = 0;

/**
 * Notes that the worker of `known` will hold `key`: whether it must be sent what to compile (it
 * lacks the key), and whether it must first forget everything (it holds too many).
 */
function remember(known: Set<string>, key: string): { send: boolean; reset: boolean } {
  if (known.has(key)) return { send: false, reset: false };
  const reset = known.size >= KEPT_PROGRAMS;
  if (reset) known.clear();
  known.add(key);
  return { send: true, reset };
}

function rulePool(): WorkerPool {
  pool ??= new WorkerPool({
    name: "CEL rule",
    start: () => startEntry(ENTRY, WORKER_HEAP_MB),
    failed: (why) => errors.internal(`evaluating validation rules failed: ${why}`),
    timeoutMs: TIMEOUT_MS,
  });
  return pool;
}

/** The rule failures validateRules gives, computed on a worker thread; a 500 if the worker fails or hangs. */
export async function validateRulesOffThread(
  key: string,
  schema: JsonSchema,
  obj: unknown,
  old: unknown,
): Promise<FieldError[]> {
  const result = await rulePool().run((id, known) => {
    const { send, reset } = remember(known, key);
    return { id, key, obj, old, ...(send ? { schema, reset } : {}) } satisfies RulesJob;
  });
  return result as FieldError[];
}

/** One admission expression's value or error text, computed on a worker thread (admission/offload.ts). */
export async function evaluateExpressionOffThread(
  key: string,
  compile: ExpressionSource,
  input: AdmissionInput,
  variables: Record<string, unknown>,
): Promise<ExpressionReply> {
  const result = await rulePool().run((id, known) => {
    const { send, reset } = remember(known, key);
    return {
      kind: "admission",
      id,
      key,
      input,
      variables,
      ...(send ? { compile, reset } : {}),
    } satisfies ExpressionJob;
  });
  return result as ExpressionReply;
}

/**
 * Registers a running server; the returned function, called when it stops, ends the rule workers
 * once no server of this process is running.
 */
export function useRuleWorkers(): () => void {
  users++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--users === 0) pool?.stop();
  };
}
