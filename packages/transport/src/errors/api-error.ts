import { mediaTypeOf, PROTOBUF_MEDIA_TYPE } from "../http/media-type.js";
import { excerptBytes, hexExcerpt } from "./base.js";
import { decodeProtobufStatus } from "./protobuf-status.js";
import {
  isStatusBody,
  reasonForHttpCode,
  type StatusBody,
  type StatusCause,
  type StatusDetails,
  type StatusReason,
} from "./status.js";

/** Which request an {@link ApiError} answered (path without query string). */
export interface ApiErrorRequest {
  readonly method: string;
  readonly path: string;
}

/** Retry-After values above this are clipped: a broken proxy must not park a client for hours. */
export const MAX_RETRY_AFTER_SECONDS = 60;

/**
 * The API server (or something in front of it) answered with a failure. `code` is the HTTP code
 * (or `Status.code` for watch ERROR events), `reason` the Status reason, or one derived from the code
 * when the body was not a Status; `bodyExcerpt` then holds the start of that body.
 */
export class ApiError extends Error {
  readonly code: number;
  readonly reason: StatusReason | (string & {});
  readonly details: StatusDetails | undefined;
  /** The Status as sent by the server, or one built from the HTTP code when the body was not a Status. */
  readonly status: StatusBody;
  /** From the Retry-After header or `details.retryAfterSeconds`; undefined when neither was given. */
  readonly retryAfterSeconds: number | undefined;
  readonly bodyExcerpt: string | undefined;
  readonly request: ApiErrorRequest | undefined;

  constructor(init: {
    status: StatusBody;
    code: number;
    reason: string;
    message: string;
    retryAfterSeconds?: number | undefined;
    bodyExcerpt?: string | undefined;
    request?: ApiErrorRequest | undefined;
  }) {
    super(init.message);
    this.name = "ApiError";
    this.status = init.status;
    this.code = init.code;
    this.reason = init.reason;
    this.details = init.status.details;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.bodyExcerpt = init.bodyExcerpt;
    this.request = init.request;
  }

  /** `details.causes`, or an empty list. */
  get causes(): readonly StatusCause[] {
    return this.details?.causes ?? [];
  }
}

/** Options for {@link apiErrorFromStatus}. */
export interface FromStatusOptions {
  /** The HTTP code of the response carrying the Status (200 for watch ERROR events). */
  readonly httpCode?: number;
  readonly retryAfterHeader?: string | undefined;
  readonly request?: ApiErrorRequest;
  readonly now?: number;
}

/** Builds an ApiError from a Status body, tolerating missing or mistyped optional fields. */
export function apiErrorFromStatus(raw: StatusBody, options: FromStatusOptions = {}): ApiError {
  const status = normalizeStatus(raw);
  const httpCode = options.httpCode !== undefined && options.httpCode >= 400 ? options.httpCode : undefined;
  const code = status.code ?? httpCode ?? 500;
  const reason = status.reason ?? reasonForHttpCode(code);
  const retryAfterSeconds =
    parseRetryAfter(options.retryAfterHeader, options.now) ?? positive(status.details?.retryAfterSeconds);
  return new ApiError({
    status,
    code,
    reason,
    message: status.message ?? `${reason} (HTTP ${code})`,
    retryAfterSeconds: clipRetryAfter(retryAfterSeconds),
    request: options.request,
  });
}

/** What {@link apiErrorFromResponse} needs to know about a failed response. */
export interface FailedResponse {
  readonly statusCode: number;
  readonly contentType: string | undefined;
  readonly retryAfter: string | undefined;
  readonly body: Uint8Array;
  readonly request?: ApiErrorRequest;
}

/**
 * Builds an ApiError from any failed response: a Status in JSON or (when the Content-Type says
 * protobuf) in protobuf when there is one, else from the HTTP code with an excerpt of the body.
 */
export function apiErrorFromResponse(response: FailedResponse, now = Date.now()): ApiError {
  const protobuf = mediaTypeOf(response.contentType) === PROTOBUF_MEDIA_TYPE;
  const decoded = protobuf ? decodeProtobufStatus(response.body) : jsonStatus(response.body);
  if ("status" in decoded) {
    return apiErrorFromStatus(decoded.status, {
      httpCode: response.statusCode,
      retryAfterHeader: response.retryAfter,
      ...(response.request ? { request: response.request } : {}),
      now,
    });
  }
  const code = response.statusCode;
  const reason = reasonForHttpCode(code);
  const empty = response.body.length === 0;
  const bodyExcerpt = empty ? undefined : protobuf ? hexExcerpt(response.body) : excerptBytes(response.body);
  const message = empty
    ? `the server responded with HTTP ${code} and an empty body`
    : protobuf
      ? `the server responded with HTTP ${code} and a protobuf body that is not a readable Status (${decoded.problem}): ${bodyExcerpt}`
      : `the server responded with HTTP ${code} (${response.contentType ?? "no content type"}): ${bodyExcerpt}`;
  const retryAfterSeconds = clipRetryAfter(parseRetryAfter(response.retryAfter, now));
  const status: StatusBody = {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message,
    reason,
    code,
    ...(retryAfterSeconds !== undefined ? { details: { retryAfterSeconds } } : {}),
  };
  return new ApiError({
    status,
    code,
    reason,
    message,
    retryAfterSeconds,
    bodyExcerpt,
    request: response.request,
  });
}

/** Parses a Retry-After value (delay seconds or HTTP date) into whole seconds ≥ 0. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

function clipRetryAfter(seconds: number | undefined): number | undefined {
  return seconds === undefined ? undefined : Math.min(seconds, MAX_RETRY_AFTER_SECONDS);
}

function positive(n: unknown): number | undefined {
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? n : undefined;
}

function jsonStatus(body: Uint8Array): { readonly status: StatusBody } | { readonly problem: string } {
  if (body.length === 0) return { problem: "empty body" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return { problem: "not JSON" };
  }
  return isStatusBody(parsed) ? { status: parsed } : { problem: "not a Status" };
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

// Servers and proxies are not trusted to send well-typed Status objects; keep only well-typed fields.
function normalizeStatus(raw: StatusBody): StatusBody & { code?: number; reason?: string; message?: string } {
  const r = raw as unknown as Record<string, unknown>;
  const code = typeof r.code === "number" && Number.isInteger(r.code) && r.code > 0 ? r.code : undefined;
  const details = normalizeDetails(r.details);
  const metadata =
    typeof r.metadata === "object" && r.metadata !== null ? (r.metadata as StatusBody["metadata"]) : {};
  return {
    kind: "Status",
    apiVersion: str(r.apiVersion) ?? "v1",
    metadata,
    status: str(r.status) ?? "Failure",
    ...optional("message", str(r.message)),
    ...optional("reason", str(r.reason)),
    ...optional("details", details),
    ...optional("code", code),
  };
}

function normalizeDetails(value: unknown): StatusDetails | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const d = value as Record<string, unknown>;
  const causes = Array.isArray(d.causes)
    ? d.causes
        .filter((c): c is Record<string, unknown> => typeof c === "object" && c !== null)
        .map((c) => ({
          ...optional("reason", str(c.reason)),
          ...optional("message", str(c.message)),
          ...optional("field", str(c.field)),
        }))
    : undefined;
  return {
    ...optional("name", str(d.name)),
    ...optional("group", str(d.group)),
    ...optional("kind", str(d.kind)),
    ...optional("uid", str(d.uid)),
    ...optional("causes", causes),
    ...optional("retryAfterSeconds", positive(d.retryAfterSeconds)),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]: V });
}
