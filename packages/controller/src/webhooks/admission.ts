/**
 * Typed admission handlers and the AdmissionReview answer they produce. A validating handler
 * allows by returning nothing, or returns `deny(...)`; a mutating handler returns the changed
 * object (or changes the copy it was given in place and returns nothing) and the runtime answers
 * with the JSON Patch between the two. Either may add warnings with `request.warn(...)`. A handler
 * that throws, or passes its deadline, denies the request with a message saying so: the answer is
 * always one complete AdmissionReview.
 */
import type { GroupVersionKind, GroupVersionResource, KubernetesObject } from "@kubesdk/models";
import { runWithDeadline } from "./deadline.js";
import { diffPatch } from "./json-patch.js";
import type {
  AdmissionOperation,
  AdmissionReviewRequest,
  AdmissionReviewResponse,
  UserInfo,
} from "./review-types.js";

/** One admission request, typed for the kind the handler was registered for. */
export interface AdmissionRequest<T> {
  readonly uid: string;
  readonly operation: AdmissionOperation;
  readonly kind: GroupVersionKind;
  readonly resource: GroupVersionResource;
  readonly subResource: string | undefined;
  readonly name: string | undefined;
  readonly namespace: string | undefined;
  readonly userInfo: UserInfo;
  /** The object being written (absent on DELETE). */
  readonly object: T | undefined;
  /** The object before the write (UPDATE and DELETE). */
  readonly oldObject: T | undefined;
  /** True when the write is a dry run: the handler must have no side effects then. */
  readonly dryRun: boolean;
  /** CreateOptions, UpdateOptions, … as sent. */
  readonly options: unknown;
  /** Aborted when the handler's deadline passes. */
  readonly signal: AbortSignal;
  /** Adds a warning the client shows (kubectl prints "Warning: ..."). */
  warn(message: string): void;
}

/** A refusal: the client gets `message` with HTTP `code` (default 403 Forbidden). */
export class Denial {
  constructor(
    readonly message: string,
    readonly code = 403,
    readonly reason?: string,
  ) {}
}

/** Refuses the request with `message`. */
export function deny(message: string, options: { code?: number; reason?: string } = {}): Denial {
  return new Denial(message, options.code ?? 403, options.reason);
}

/** What a handler may return: `void` too, so a handler with no `return` type-checks. */
// biome-ignore lint/suspicious/noConfusingVoidType: a handler that allows by falling off its end returns void.
type Returned<R> = R | undefined | void;

export type ValidatingHandler<T = KubernetesObject> = (
  request: AdmissionRequest<T>,
) => Returned<Denial> | Promise<Returned<Denial>>;

/** Gets a deep copy of the incoming object; returns the object to admit (or nothing: the copy). */
export type MutatingHandler<T = KubernetesObject> = (
  object: T,
  request: AdmissionRequest<T>,
) => Returned<T | Denial> | Promise<Returned<T | Denial>>;

type Answer = Omit<AdmissionReviewResponse, "uid">;

function requestOf<T>(
  r: AdmissionReviewRequest,
  signal: AbortSignal,
  warnings: string[],
): AdmissionRequest<T> {
  return {
    uid: r.uid,
    operation: r.operation,
    kind: r.kind,
    resource: r.resource,
    subResource: r.subResource,
    name: r.name,
    namespace: r.namespace,
    userInfo: r.userInfo ?? {},
    object: (r.object ?? undefined) as T | undefined,
    oldObject: (r.oldObject ?? undefined) as T | undefined,
    dryRun: r.dryRun === true,
    options: r.options,
    signal,
    warn: (message) => void warnings.push(message),
  };
}

const refused = (d: Denial): Answer => ({
  allowed: false,
  status: { code: d.code, message: d.message, ...(d.reason ? { reason: d.reason } : {}) },
});

function failed(
  what: string,
  outcome: { kind: "error"; error: unknown } | { kind: "timeout"; ms: number },
): Answer {
  const message =
    outcome.kind === "timeout"
      ? `${what} did not answer within ${outcome.ms} ms`
      : `${what} failed: ${outcome.error instanceof Error ? outcome.error.message : String(outcome.error)}`;
  return { allowed: false, status: { code: 500, message, reason: "InternalError" } };
}

const withWarnings = (answer: Answer, warnings: readonly string[]): Answer =>
  warnings.length > 0 ? { ...answer, warnings: [...warnings] } : answer;

export async function answerValidating<T>(
  request: AdmissionReviewRequest,
  handler: ValidatingHandler<T>,
  deadlineMs: number,
): Promise<Answer> {
  const warnings: string[] = [];
  const outcome = await runWithDeadline(deadlineMs, (signal) =>
    handler(requestOf<T>(request, signal, warnings)),
  );
  if (outcome.kind !== "value") return failed("validating webhook handler", outcome);
  if (outcome.value instanceof Denial) return withWarnings(refused(outcome.value), warnings);
  return withWarnings({ allowed: true }, warnings);
}

export async function answerMutating<T>(
  request: AdmissionReviewRequest,
  handler: MutatingHandler<T>,
  deadlineMs: number,
): Promise<Answer> {
  const warnings: string[] = [];
  // DELETE carries no object to change; the handler still sees the request (it may deny).
  const original = request.object ?? request.oldObject;
  if (original === undefined || original === null)
    return { allowed: false, status: { code: 400, message: "admission request carries no object" } };
  const copy = structuredClone(original) as T;
  const outcome = await runWithDeadline(deadlineMs, (signal) =>
    handler(copy, requestOf<T>(request, signal, warnings)),
  );
  if (outcome.kind !== "value") return failed("mutating webhook handler", outcome);
  if (outcome.value instanceof Denial) return withWarnings(refused(outcome.value), warnings);
  if (request.object === undefined || request.object === null)
    return withWarnings({ allowed: true }, warnings);
  const patch = diffPatch(request.object, outcome.value ?? copy);
  if (patch.length === 0) return withWarnings({ allowed: true }, warnings);
  const encoded = Buffer.from(JSON.stringify(patch)).toString("base64");
  return withWarnings({ allowed: true, patchType: "JSONPatch", patch: encoded }, warnings);
}
