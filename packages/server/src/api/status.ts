/**
 * Status bodies exactly as upstream writes them (docs/api-semantics.md §1): key order kind,
 * apiVersion, metadata, status, message, reason, details, code.
 */
import { KubesdkError, type metaV1 } from "@kubesdk/models";
export type StatusCause = metaV1.StatusCause;
export type StatusDetails = metaV1.StatusDetails;

/** The Status the server writes: kind, apiVersion, metadata and status are always set. */
export type Status = metaV1.Status &
  Required<Pick<metaV1.Status, "kind" | "apiVersion" | "metadata">> & {
    status: "Failure" | "Success";
  };

/** A request failure that the HTTP layer writes as a Status body with `status.code`. */
export class StatusError extends KubesdkError {
  readonly code = "STATUS_ERROR" as const;
  /** Response headers besides the Status (e.g. admission webhooks' warnings). */
  headers: Record<string, string> = {};
  constructor(readonly status: Status) {
    super(status.message ?? status.reason ?? "error");
  }
  /** The HTTP code the Status is written with. */
  get statusCode(): number {
    return this.status.code ?? 500;
  }
}

export function failure(
  code: number,
  reason: string,
  message: string,
  details?: StatusDetails,
  metadata: Status["metadata"] = {},
): StatusError {
  const status: Status = { kind: "Status", apiVersion: "v1", metadata, status: "Failure", message, reason };
  if (details) status.details = details;
  status.code = code;
  return new StatusError(status);
}

/** Identifies a resource in messages: `configmaps` or `deployments.apps`. */
export interface Qualified {
  readonly group: string;
  readonly resource: string;
}

export function qualifiedName(q: Qualified): string {
  return q.group ? `${q.resource}.${q.group}` : q.resource;
}

function groupDetails(q: Qualified, name: string): StatusDetails {
  return q.group ? { name, group: q.group, kind: q.resource } : { name, kind: q.resource };
}

export const errors = {
  notFound(q: Qualified, name: string): StatusError {
    return failure(404, "NotFound", `${qualifiedName(q)} "${name}" not found`, groupDetails(q, name));
  },
  alreadyExists(q: Qualified, name: string): StatusError {
    return failure(
      409,
      "AlreadyExists",
      `${qualifiedName(q)} "${name}" already exists`,
      groupDetails(q, name),
    );
  },
  conflict(q: Qualified, name: string, why: string): StatusError {
    return failure(
      409,
      "Conflict",
      `Operation cannot be fulfilled on ${qualifiedName(q)} "${name}": ${why}`,
      groupDetails(q, name),
    );
  },
  staleResourceVersion(q: Qualified, name: string): StatusError {
    return errors.conflict(
      q,
      name,
      "the object has been modified; please apply your changes to the latest version and try again",
    );
  },
  /**
   * 422 for field errors; `kind` is the object's Kind, `group` its API group. kube-apiserver 1.37
   * reports each distinct error once, in the message and in the causes; a custom resource's
   * errors (`repeatedCauses`) once in the message but every time in the causes (two identical
   * failing CEL rules give two causes).
   */
  invalid(
    kind: string,
    group: string,
    name: string,
    causes: FieldError[],
    repeatedCauses = false,
  ): StatusError {
    const seen = new Set<string>();
    const distinct = causes.filter((c) => {
      const key = formatFieldError(c);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const list = distinct.map(formatFieldError);
    const joined = list.length === 1 ? list[0] : `[${list.join(", ")}]`;
    // As upstream's StatusDetails (omitempty): an empty name or kind is left out.
    const details: StatusDetails = {
      ...(name ? { name } : {}),
      ...(group ? { group } : {}),
      ...(kind ? { kind } : {}),
      causes: (repeatedCauses ? causes : distinct).map(toCause),
    };
    return failure(
      422,
      "Invalid",
      `${kind}${group ? `.${group}` : ""} "${name}" is invalid: ${joined}`,
      details,
    );
  },
  badRequest(message: string): StatusError {
    return failure(400, "BadRequest", message);
  },
  forbidden(q: Qualified, name: string, why: string): StatusError {
    return failure(
      403,
      "Forbidden",
      `${qualifiedName(q)} "${name}" is forbidden: ${why}`,
      groupDetails(q, name),
    );
  },
  unauthorized(): StatusError {
    return failure(401, "Unauthorized", "Unauthorized");
  },
  methodNotSupported(q: Qualified, action: string): StatusError {
    return failure(
      405,
      "MethodNotAllowed",
      `${action} is not supported on resources of kind "${qualifiedName(q)}"`,
      {
        ...(q.group ? { group: q.group } : {}),
        kind: q.resource,
      },
    );
  },
  notFoundPath(): StatusError {
    return failure(404, "NotFound", "the server could not find the requested resource", {});
  },
  expired(message: string, metadata: Status["metadata"] = {}): StatusError {
    return failure(410, "Expired", message, undefined, metadata);
  },
  tooLargeResourceVersion(requested: number, current: number): StatusError {
    return failure(504, "Timeout", `Timeout: Too large resource version: ${requested}, current: ${current}`, {
      causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }],
      retryAfterSeconds: 1,
    });
  },
  notAcceptable(accepted: readonly string[]): StatusError {
    return failure(
      406,
      "NotAcceptable",
      `only the following media types are accepted: ${accepted.join(", ")}`,
    );
  },
  unsupportedMediaType(accepted: readonly string[]): StatusError {
    return failure(
      415,
      "UnsupportedMediaType",
      `the body of the request was in an unknown format - accepted media types include: ${accepted.join(", ")}`,
    );
  },
  requestEntityTooLarge(limit: number): StatusError {
    return failure(413, "RequestEntityTooLarge", `Request entity too large: limit is ${limit}`);
  },
  tooManyRequests(message: string, retryAfterSeconds: number): StatusError {
    return failure(429, "TooManyRequests", message, { retryAfterSeconds });
  },
  internal(message: string): StatusError {
    return failure(500, "InternalError", `Internal error occurred: ${message}`, {
      causes: [{ message }],
    });
  },
  /** A 500 with only a message (no reason, no details), as kube-apiserver answers an error that is not an API status. */
  unclassified(message: string): StatusError {
    return new StatusError({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message,
      code: 500,
    });
  },
};

/** One field validation failure, like apimachinery's field.Error. */
export interface FieldError {
  readonly type:
    | "FieldValueInvalid"
    | "FieldValueRequired"
    | "FieldValueNotSupported"
    | "FieldValueForbidden"
    | "FieldValueDuplicate"
    | "FieldValueTooLong"
    | "FieldValueTooMany"
    | "FieldValueTypeInvalid"
    | "FieldValueNotFound";
  readonly field: string;
  readonly detail: string;
  /** The offending value, rendered into the message for Invalid/NotSupported/Duplicate. */
  readonly value?: unknown;
}

const TYPE_TEXT: Record<FieldError["type"], string> = {
  FieldValueInvalid: "Invalid value",
  FieldValueRequired: "Required value",
  FieldValueNotSupported: "Unsupported value",
  FieldValueForbidden: "Forbidden",
  FieldValueDuplicate: "Duplicate value",
  FieldValueTooLong: "Too long",
  FieldValueTooMany: "Too many",
  FieldValueTypeInvalid: "Invalid value",
  FieldValueNotFound: "Not found",
};

/** A value upstream prints with Go's %#v (e.g. a struct): written into messages as is. */
export class GoSyntax {
  constructor(readonly text: string) {}
}

function renderValue(v: unknown): string {
  if (v instanceof GoSyntax) return v.text;
  if (typeof v === "string") return JSON.stringify(v);
  if (v === null || v === undefined) return "null";
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return JSON.stringify(v);
}

function causeMessage(e: FieldError): string {
  const text = TYPE_TEXT[e.type];
  const showsValue =
    e.value !== undefined &&
    (e.type === "FieldValueInvalid" ||
      e.type === "FieldValueTypeInvalid" ||
      e.type === "FieldValueNotSupported" ||
      e.type === "FieldValueTooMany" ||
      e.type === "FieldValueDuplicate" ||
      e.type === "FieldValueNotFound");
  const head = showsValue ? `${text}: ${renderValue(e.value)}` : text;
  return e.detail ? `${head}: ${e.detail}` : head;
}

function formatFieldError(e: FieldError): string {
  return `${e.field}: ${causeMessage(e)}`;
}

function toCause(e: FieldError): StatusCause {
  return { reason: e.type, message: causeMessage(e), field: e.field };
}
