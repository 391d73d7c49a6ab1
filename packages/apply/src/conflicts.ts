/**
 * ApplyConflictError: a 409 from server-side apply with its conflicts parsed
 * into `{ manager, operation, apiVersion?, subresource?, path }` — from the
 * Status causes when present, else from the message text (both forms occur:
 * proxies and older servers may drop details).
 */
import { KubesdkError } from "@kubesdk/models";
import { ApiError, isApplyConflict } from "@kubesdk/transport";

export interface ApplyConflict {
  /** The field manager that owns the field. */
  readonly manager: string;
  /** "Apply" for appliers, "Update" for managers that wrote with update/patch/create. */
  readonly operation: "Apply" | "Update";
  readonly apiVersion?: string;
  readonly subresource?: string;
  /** The field, in upstream's path syntax: `.spec.replicas`, `.spec.containers[name="web"].image`. */
  readonly path: string;
}

/** A server-side apply conflict with its conflicts parsed; `cause` is the 409 ApiError. */
export class ApplyConflictError extends KubesdkError {
  readonly code = "APPLY_CONFLICT" as const;
  constructor(
    readonly conflicts: readonly ApplyConflict[],
    override readonly cause: ApiError,
  ) {
    super(cause.message, { cause });
  }
}

/**
 * Upstream's manager text: `"name"`, `"name" using v1`, `"name" with subresource "status"`,
 * `"name" with subresource "scale" using apps/v1`, and Update managers may end in ` at <RFC 3339 time>`.
 */
const MANAGER = /^"((?:[^"\\]|\\.)*)"(?: with subresource "([^"]*)")?(?: using (\S+?)(?: at (\S+))?)?$/;

export function parseManager(text: string): Omit<ApplyConflict, "path"> | undefined {
  const m = MANAGER.exec(text.trim());
  if (!m) return undefined;
  const out: { manager: string; operation: "Apply" | "Update"; apiVersion?: string; subresource?: string } = {
    manager: (m[1] as string).replace(/\\(.)/g, "$1"),
    operation: m[3] ? "Update" : "Apply",
  };
  if (m[3]) out.apiVersion = m[3];
  if (m[2]) out.subresource = m[2];
  return out;
}

/** Parses the conflict list from causes (`conflict with <manager>` + field) or, failing that, the message. */
export function parseApplyConflicts(
  message: string,
  causes: readonly { reason?: string; message?: string; field?: string }[],
): ApplyConflict[] {
  const fromCauses: ApplyConflict[] = [];
  for (const c of causes) {
    if (c.reason !== "FieldManagerConflict" || !c.field || !c.message) continue;
    const who = parseManager(c.message.replace(/^conflict with /, ""));
    if (who) fromCauses.push({ ...who, path: c.field });
  }
  if (fromCauses.length > 0) return fromCauses;
  // Message forms: `Apply failed with 1 conflict: conflict with "m" using v1: .path`
  // and `Apply failed with N conflicts: conflicts with "a":\n- .p1\nconflicts with "b" using v1:\n- .p2`.
  const body = message.replace(/^Apply failed with \d+ conflicts?: /, "");
  const single =
    /^conflict with (".*?"(?: with subresource "[^"]*")?(?: using \S+?(?: at \S+)?)?): (\S.*)$/.exec(body);
  if (single) {
    const who = parseManager(single[1] as string);
    return who ? [{ ...who, path: single[2] as string }] : [];
  }
  const out: ApplyConflict[] = [];
  let who: Omit<ApplyConflict, "path"> | undefined;
  for (const line of body.split("\n")) {
    const header = /^conflicts with (.*):$/.exec(line);
    if (header) who = parseManager(header[1] as string);
    else if (line.startsWith("- ") && who) out.push({ ...who, path: line.slice(2) });
  }
  return out;
}

/** The ApplyConflictError for an apply conflict, or the error unchanged. */
export function asApplyConflict(err: unknown): unknown {
  if (!(err instanceof ApiError) || !isApplyConflict(err)) return err;
  return new ApplyConflictError(parseApplyConflicts(err.message, err.causes), err);
}
