/**
 * Status bodies come from the API server or from whatever sits in front of it, so their shape is
 * checked, not trusted. A field of the wrong type is dropped (the HTTP code fills in for it) and
 * named in `problems`, so an ApiError still says what the server meant and also what was wrong.
 */
import { z } from "zod";
import { describeIssue } from "./issues.js";
import type { Status } from "./status.js";

// Go omits empty strings and zero numbers; one that arrives anyway means "not given", not "malformed".
const text = z.string().transform((v) => (v === "" ? undefined : v));
const count = (n: z.ZodNumber) => n.nonnegative().transform((v) => (v === 0 ? undefined : v));

const causeFields = { reason: text, message: text, field: text };
const detailsFields = {
  name: text,
  group: text,
  kind: text,
  uid: text,
  retryAfterSeconds: count(z.number()),
};
const statusFields = {
  apiVersion: text,
  metadata: z.object({ resourceVersion: z.string().optional(), continue: z.string().optional() }),
  status: text,
  message: text,
  reason: text,
  code: count(z.number().int()),
};

/** Every field optional and typed: what a well-formed Status looks like. */
const strictStatus = z.object({
  kind: z.literal("Status"),
  ...optionalAll(statusFields),
  details: z
    .object({ ...optionalAll(detailsFields), causes: z.array(z.object(optionalAll(causeFields))).optional() })
    .optional(),
});

const lenientCause = z.object(lenientAll(causeFields));

/** The same fields, each replaced by undefined when ill-typed; causes that are not objects are dropped. */
const lenientStatus = z.object({
  ...lenientAll(statusFields),
  details: z
    .object({
      ...lenientAll(detailsFields),
      causes: z
        .array(z.unknown())
        .transform((causes) => causes.filter(isObject).map((c) => withoutUndefined(lenientCause.parse(c))))
        .optional()
        .catch(undefined),
    })
    .optional()
    .catch(undefined),
});

/** A Status with only its well-typed fields, and what was wrong with the others. */
export interface CheckedStatus {
  readonly status: Status;
  /** e.g. `code: Invalid input: expected number, received string`; empty for a well-formed Status. */
  readonly problems: readonly string[];
}

/** True for a JSON value that claims to be a Status (kind "Status"); {@link checkStatus} checks the rest. */
export function isStatusBody(value: unknown): value is object {
  return isObject(value) && value.kind === "Status";
}

/** Checks a value that claims to be a Status; ill-typed fields are dropped and listed in `problems`. */
export function checkStatus(value: object): CheckedStatus {
  const checked = strictStatus.safeParse(value);
  const problems = checked.success ? [] : checked.error.issues.map(describeIssue);
  const fields = lenientStatus.parse(value);
  const status: Status = {
    ...withoutUndefined(fields),
    kind: "Status",
    apiVersion: "v1",
    metadata: fields.metadata ?? {},
    status: fields.status ?? "Failure",
    ...(fields.details ? { details: withoutUndefined(fields.details) as Status["details"] } : {}),
  };
  return { status, problems };
}

function optionalAll<S extends Record<string, z.ZodType>>(shape: S): { [K in keyof S]: z.ZodOptional<S[K]> } {
  return Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, s.optional()])) as {
    [K in keyof S]: z.ZodOptional<S[K]>;
  };
}

function lenientAll<S extends Record<string, z.ZodType>>(
  shape: S,
): { [K in keyof S]: z.ZodCatch<z.ZodOptional<S[K]>> } {
  return Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, s.optional().catch(undefined)])) as {
    [K in keyof S]: z.ZodCatch<z.ZodOptional<S[K]>>;
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
