/**
 * Applying with a conflict policy. `fail` (default) throws ApplyConflictError;
 * `force` takes the fields; `yield` drops the conflicting fields from the
 * configuration and applies the rest — what a controller needs to stop
 * fighting, say, an autoscaler over `spec.replicas`. Works with any client
 * that can send an apply patch (the typed and dynamic clients, or a function).
 */
import type { ApplyConfiguration, ObjectWithTypeMeta } from "./apply-configuration.js";
import { type ApplyConflict, ApplyConflictError, asApplyConflict } from "./conflicts.js";
import { parseFieldPath, removePath } from "./field-path.js";

export type ConflictPolicy = "fail" | "force" | "yield";

export interface ApplyPolicyOptions {
  readonly fieldManager: string;
  readonly conflicts?: ConflictPolicy;
  readonly dryRun?: boolean;
  readonly subresource?: string;
  readonly signal?: AbortSignal;
}

/** What the policy needs from a client: one server-side apply request. */
export type ApplyRequest<T> = (
  config: unknown,
  opts: { fieldManager: string; force: boolean; dryRun: boolean; subresource?: string; signal?: AbortSignal },
) => Promise<T>;

export interface ApplyResult<T> {
  readonly object: T;
  /** Fields left to their owners under the `yield` policy (empty otherwise). */
  readonly yielded: readonly ApplyConflict[];
}

export async function applyWithPolicy<T extends ObjectWithTypeMeta>(
  send: ApplyRequest<T>,
  config: ApplyConfiguration<T>,
  opts: ApplyPolicyOptions,
): Promise<ApplyResult<T>> {
  const policy = opts.conflicts ?? "fail";
  const base = {
    fieldManager: opts.fieldManager,
    dryRun: opts.dryRun ?? false,
    ...(opts.subresource ? { subresource: opts.subresource } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  };
  try {
    return { object: await send(config, { ...base, force: policy === "force" }), yielded: [] };
  } catch (e) {
    const err = asApplyConflict(e);
    if (!(err instanceof ApplyConflictError) || policy !== "yield") throw err;
    let trimmed: unknown = config;
    for (const c of err.conflicts) trimmed = removePath(trimmed, parseFieldPath(c.path));
    // One retry: a new conflict now means someone else wrote meanwhile; report it.
    try {
      return { object: await send(trimmed, { ...base, force: false }), yielded: err.conflicts };
    } catch (again) {
      throw asApplyConflict(again);
    }
  }
}
