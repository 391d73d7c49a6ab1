import { KubesdkError, mediaTypeOf, PROTOBUF_MEDIA_TYPE } from "@kubesdk/models";
import { decodeJsonBody } from "../http/json-body.js";
import { excerptBytes, hexExcerpt } from "./base.js";
import { decodeProtobufStatus, type ProtobufBodyDecoder } from "./protobuf-status.js";
import {
  failureStatus,
  reasonForHttpCode,
  type Status,
  type StatusCause,
  type StatusDetails,
  type StatusReason,
} from "./status.js";
import { checkStatus, isStatusBody } from "./status-schema.js";

/** Which request an {@link ApiError} answered (path without query string). */
export interface ApiErrorRequest {
  readonly method: string;
  readonly path: string;
}

/** Retry-After values above this are clipped: a broken proxy must not park a client for hours. */
export const MAX_RETRY_AFTER_SECONDS = 60;

/** What an {@link ApiError} is built from. */
export type ApiErrorInit = Pick<ApiError, "status" | "statusCode" | "reason" | "message"> &
  Partial<Pick<ApiError, "retryAfterSeconds" | "bodyExcerpt" | "request">>;

/**
 * The API server (or something in front of it) answered with a failure. `code` is always
 * `"API_ERROR"`; `statusCode` is the HTTP code (or `Status.code` for watch ERROR events), `reason`
 * the Status reason, or one derived from the code when the body was not a Status; `bodyExcerpt`
 * then holds the start of that body.
 */
export class ApiError extends KubesdkError {
  readonly code = "API_ERROR" as const;
  readonly statusCode: number;
  readonly reason: StatusReason | (string & {});
  readonly details: StatusDetails | undefined;
  /** The Status as sent by the server (ill-typed fields dropped), or one built from the HTTP code. */
  readonly status: Status;
  /** From the Retry-After header or `details.retryAfterSeconds`; undefined when neither was given. */
  readonly retryAfterSeconds: number | undefined;
  readonly bodyExcerpt: string | undefined;
  readonly request: ApiErrorRequest | undefined;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.statusCode = init.statusCode;
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

/**
 * Builds an ApiError from a Status body. Its shape is checked: ill-typed fields are ignored (the
 * HTTP code stands in for them) and named at the end of the message.
 */
export function apiErrorFromStatus(raw: object, options: FromStatusOptions = {}): ApiError {
  const { status, problems } = checkStatus(raw);
  const httpCode = options.httpCode !== undefined && options.httpCode >= 400 ? options.httpCode : undefined;
  const statusCode = status.code ?? httpCode ?? 500;
  const reason = status.reason ?? reasonForHttpCode(statusCode);
  const retryAfterSeconds =
    parseRetryAfter(options.retryAfterHeader, options.now) ?? status.details?.retryAfterSeconds;
  const message = status.message ?? `${reason} (HTTP ${statusCode})`;
  return new ApiError({
    status,
    statusCode,
    reason,
    message: problems.length === 0 ? message : `${message} [malformed Status: ${problems.join("; ")}]`,
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
  /** Reads a protobuf body; without it a protobuf Status is reported as unreadable. */
  readonly protobufDecoder?: ProtobufBodyDecoder;
}

/**
 * Builds an ApiError from any failed response: a Status in JSON or (when the Content-Type says
 * protobuf and a decoder is given) in protobuf when there is one, else from the HTTP code with an
 * excerpt of the body.
 */
export function apiErrorFromResponse(response: FailedResponse, now = Date.now()): ApiError {
  const protobuf = mediaTypeOf(response.contentType) === PROTOBUF_MEDIA_TYPE;
  const decoded = protobuf
    ? decodeProtobufStatus(response.body, response.protobufDecoder)
    : jsonStatus(response.body);
  if ("status" in decoded) {
    return apiErrorFromStatus(decoded.status, {
      httpCode: response.statusCode,
      retryAfterHeader: response.retryAfter,
      ...(response.request ? { request: response.request } : {}),
      now,
    });
  }
  const statusCode = response.statusCode;
  const reason = reasonForHttpCode(statusCode);
  const empty = response.body.length === 0;
  const bodyExcerpt = empty ? undefined : protobuf ? hexExcerpt(response.body) : excerptBytes(response.body);
  const message = empty
    ? `the server responded with HTTP ${statusCode} and an empty body`
    : protobuf
      ? `the server responded with HTTP ${statusCode} and a protobuf body that is not a readable Status (${decoded.problem}): ${bodyExcerpt}`
      : `the server responded with HTTP ${statusCode} (${response.contentType ?? "no content type"}): ${bodyExcerpt}`;
  const retryAfterSeconds = clipRetryAfter(parseRetryAfter(response.retryAfter, now));
  const details = retryAfterSeconds !== undefined ? { retryAfterSeconds } : undefined;
  const status = failureStatus(statusCode, reason, message, details);
  return new ApiError({
    status,
    statusCode,
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

function jsonStatus(body: Uint8Array): { readonly status: object } | { readonly problem: string } {
  if (body.length === 0) return { problem: "empty body" };
  let parsed: unknown;
  try {
    parsed = decodeJsonBody(body, undefined);
  } catch {
    return { problem: "not JSON" };
  }
  return isStatusBody(parsed) ? { status: parsed } : { problem: "not a Status" };
}
