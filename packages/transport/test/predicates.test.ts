import { describe, expect, it } from "vitest";
import * as errors from "../src/index.js";
import { statusBody } from "./helpers/test-server.js";

const e = (code: number, reason: string, message = "m", details?: errors.StatusDetails) =>
  errors.apiErrorFromStatus(statusBody(code, reason, message, details), { httpCode: code });

type Predicate = (err: unknown) => boolean;

/** Each predicate with the errors it accepts and the ones it refuses. */
const cases: [string, Predicate, errors.ApiError[], errors.ApiError[]][] = [
  ["isNotFound", errors.isNotFound, [e(404, "NotFound"), e(404, "Other")], [e(409, "Conflict")]],
  ["isConflict", errors.isConflict, [e(409, "Conflict")], [e(409, "AlreadyExists")]],
  ["isAlreadyExists", errors.isAlreadyExists, [e(409, "AlreadyExists")], [e(409, "Conflict")]],
  ["isInvalid", errors.isInvalid, [e(422, "Invalid"), e(422, "Other")], [e(400, "BadRequest")]],
  ["isForbidden", errors.isForbidden, [e(403, "Forbidden")], [e(401, "Unauthorized")]],
  ["isUnauthorized", errors.isUnauthorized, [e(401, "Unauthorized")], [e(403, "Forbidden")]],
  [
    "isTooManyRequests",
    errors.isTooManyRequests,
    [e(429, "TooManyRequests")],
    [e(503, "ServiceUnavailable")],
  ],
  ["isServerTimeout", errors.isServerTimeout, [e(500, "ServerTimeout")], [e(504, "Timeout")]],
  ["isTimeout", errors.isTimeout, [e(504, "Timeout"), e(504, "Other")], [e(500, "ServerTimeout")]],
  [
    "isServiceUnavailable",
    errors.isServiceUnavailable,
    [e(503, "ServiceUnavailable")],
    [e(500, "InternalError")],
  ],
  [
    "isExpired",
    errors.isExpired,
    [e(410, "Expired"), e(410, "Gone"), e(400, "Expired")],
    [e(404, "NotFound")],
  ],
];

describe("predicates", () => {
  it.each(cases)("%s accepts its errors and refuses others and non-ApiErrors", (_name, p, yes, no) => {
    expect(yes.map(p)).toEqual(yes.map(() => true));
    expect(no.map(p)).toEqual(no.map(() => false));
    expect([new Error("x"), undefined, { statusCode: 404, reason: "NotFound" }].map(p)).toEqual([
      false,
      false,
      false,
    ]);
  });

  it("isTooLargeResourceVersion recognises all three forms", () => {
    const withCause = e(504, "Timeout", "Timeout: Too large resource version: 200, current: 100", {
      causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }],
      retryAfterSeconds: 1,
    });
    const causeMessageOnly = e(504, "Timeout", "request timed out", {
      causes: [{ message: "Too large resource version" }],
    });
    const messageOnly = e(504, "Timeout", "Timeout: Too large resource version: 5, current: 3");
    const unrelated = [
      e(504, "Timeout", "the server was unable to return a response"),
      e(500, "InternalError", "x", { causes: [{ message: "Too large resource version" }] }),
    ];
    expect([withCause, causeMessageOnly, messageOnly].map(errors.isTooLargeResourceVersion)).toEqual([
      true,
      true,
      true,
    ]);
    expect(unrelated.map(errors.isTooLargeResourceVersion)).toEqual([false, false]);
  });

  it("isApplyConflict: 409 with FieldManagerConflict causes", () => {
    const manager = 'conflict with "kubectl-client-side-apply" using apps/v1';
    const conflict = e(409, "Conflict", `Apply failed with 1 conflict: ${manager}: .spec.replicas`, {
      causes: [{ reason: "FieldManagerConflict", message: manager, field: ".spec.replicas" }],
    });
    expect(errors.isApplyConflict(conflict)).toBe(true);
    expect(errors.isConflict(conflict)).toBe(true);
    expect(errors.isApplyConflict(e(409, "Conflict", "the object has been modified"))).toBe(false);
  });

  it("ApiError is a KubesdkError with code API_ERROR and the HTTP code as statusCode", () => {
    const err = e(404, "NotFound");
    expect(err).toBeInstanceOf(errors.KubesdkError);
    expect(err).toMatchObject({ name: "ApiError", code: "API_ERROR", statusCode: 404 });
  });
});
