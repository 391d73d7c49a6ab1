import { decodeObject, encodeObject } from "@kubesdk/models";
import { describe, expect, it } from "vitest";
import { ApiError, apiErrorFromResponse, isApplyConflict, parseRetryAfter } from "../src/index.js";
import { statusBody } from "./helpers/test-server.js";

function response(
  statusCode: number,
  body: string | object,
  contentType = "application/json",
  retryAfter?: string,
) {
  return apiErrorFromResponse({
    statusCode,
    contentType,
    retryAfter,
    body: Buffer.from(typeof body === "string" ? body : JSON.stringify(body)),
    request: { method: "GET", path: "/api/v1/namespaces/default/configmaps/x" },
  });
}

describe("ApiError from a Status body", () => {
  it("keeps code, reason, message, details and causes", () => {
    const err = response(
      422,
      statusBody(422, "Invalid", 'ConfigMap "x" is invalid: metadata.name: Invalid value: "X"', {
        name: "x",
        kind: "ConfigMap",
        causes: [{ reason: "FieldValueInvalid", message: 'Invalid value: "X"', field: "metadata.name" }],
      }),
    );
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      statusCode: 422,
      reason: "Invalid",
      message: 'ConfigMap "x" is invalid: metadata.name: Invalid value: "X"',
    });
    expect(err.details?.name).toBe("x");
    expect(err.causes).toEqual([
      { reason: "FieldValueInvalid", message: 'Invalid value: "X"', field: "metadata.name" },
    ]);
    expect(err.request).toEqual({ method: "GET", path: "/api/v1/namespaces/default/configmaps/x" });
    expect(err.bodyExcerpt).toBeUndefined();
  });

  it("takes retryAfterSeconds from the Retry-After header or from details", () => {
    expect(
      response(429, statusBody(429, "TooManyRequests", "slow down"), "application/json", "3")
        .retryAfterSeconds,
    ).toBe(3);
    expect(response(504, statusBody(504, "Timeout", "t", { retryAfterSeconds: 1 })).retryAfterSeconds).toBe(
      1,
    );
    expect(response(500, statusBody(500, "InternalError", "boom")).retryAfterSeconds).toBeUndefined();
    expect(
      response(429, statusBody(429, "TooManyRequests", "x"), "application/json", "86400").retryAfterSeconds,
    ).toBe(60);
  });

  it("tolerates mistyped fields and falls back to the HTTP code", () => {
    const err = response(409, {
      kind: "Status",
      code: "409",
      reason: 5,
      message: ["x"],
      details: { causes: [null, { reason: 3 }] },
    });
    expect(err).toMatchObject({ statusCode: 409, reason: "Conflict" });
    expect(err.causes).toEqual([{}]);
    expect(err.message).toBe(
      "Conflict (HTTP 409) [malformed Status: message: Invalid input: expected string, received array; " +
        "reason: Invalid input: expected string, received number; code: Invalid input: expected number, " +
        "received string; details.causes.0: Invalid input: expected object, received null; " +
        "details.causes.1.reason: Invalid input: expected string, received number]",
    );
  });

  it("reads empty strings and zeros as absent, not as malformed", () => {
    const err = response(404, {
      kind: "Status",
      message: "",
      reason: "",
      code: 0,
      details: { retryAfterSeconds: 0 },
    });
    expect(err).toMatchObject({ statusCode: 404, reason: "NotFound", message: "NotFound (HTTP 404)" });
    expect(err.retryAfterSeconds).toBeUndefined();
    expect(err.status).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      details: {},
    });
  });
});

describe("ApiError from bodies that are not a Status", () => {
  it("HTML from a proxy", () => {
    const html = `<html><head><title>502 Bad Gateway</title></head><body>${"x".repeat(1000)}</body></html>`;
    const err = response(502, html, "text/html");
    expect(err).toMatchObject({ statusCode: 502, reason: "InternalError" });
    expect(err.bodyExcerpt?.startsWith("<html><head><title>502 Bad Gateway")).toBe(true);
    expect(err.bodyExcerpt?.length).toBeLessThanOrEqual(201);
    expect(err.message).toContain("HTTP 502");
    expect(err.message).toContain("text/html");
  });

  it("plain text, empty bodies and JSON that is not a Status", () => {
    expect(response(404, "404 page not found\n", "text/plain")).toMatchObject({
      reason: "NotFound",
      bodyExcerpt: "404 page not found\\n",
    });
    const empty = response(503, "", "text/plain", "2");
    expect(empty).toMatchObject({
      statusCode: 503,
      reason: "ServiceUnavailable",
      retryAfterSeconds: 2,
      bodyExcerpt: undefined,
    });
    expect(empty.message).toContain("empty body");
    expect(response(403, { error: "nope" })).toMatchObject({ reason: "Forbidden", statusCode: 403 });
  });

  it("derives reasons from codes", () => {
    const reasons = [400, 401, 403, 404, 405, 406, 409, 410, 413, 415, 422, 429, 500, 503, 504, 418].map(
      (c) => response(c, "", "text/plain").reason,
    );
    expect(reasons).toEqual([
      "BadRequest",
      "Unauthorized",
      "Forbidden",
      "NotFound",
      "MethodNotAllowed",
      "NotAcceptable",
      "Conflict",
      "Gone",
      "RequestEntityTooLarge",
      "UnsupportedMediaType",
      "Invalid",
      "TooManyRequests",
      "InternalError",
      "ServiceUnavailable",
      "Timeout",
      "Unknown",
    ]);
  });
});

describe("ApiError from a protobuf body", () => {
  const PROTOBUF = "application/vnd.kubernetes.protobuf";
  const protobuf = (statusCode: number, body: Uint8Array, retryAfter?: string) =>
    apiErrorFromResponse({
      statusCode,
      contentType: PROTOBUF,
      retryAfter,
      body,
      protobufDecoder: decodeObject,
    });

  it("reads a protobuf Status exactly as its JSON form", () => {
    const status = statusBody(409, "Conflict", "Apply failed with 1 conflict", {
      name: "web",
      group: "apps",
      kind: "deployments",
      causes: [{ reason: "FieldManagerConflict", message: 'conflict with "hpa"', field: ".spec.replicas" }],
      retryAfterSeconds: 3,
    });
    const fromProtobuf = protobuf(409, encodeObject(status));
    expect(fromProtobuf).toBeInstanceOf(ApiError);
    expect(isApplyConflict(fromProtobuf)).toBe(true);
    expect(fromProtobuf).toMatchObject({
      statusCode: 409,
      reason: "Conflict",
      message: "Apply failed with 1 conflict",
      retryAfterSeconds: 3,
      bodyExcerpt: undefined,
    });
    expect(fromProtobuf.details).toEqual(response(409, status).details);
  });

  it("falls back to the HTTP code with a hex excerpt when the body is not a decodable Status", () => {
    const garbage = protobuf(500, Buffer.from("k8s\0garbage"), "4");
    expect(garbage).toMatchObject({
      statusCode: 500,
      reason: "InternalError",
      retryAfterSeconds: 4,
      bodyExcerpt: Buffer.from("k8s\0garbage").toString("hex"),
    });
    expect(garbage.message).toMatch(
      /^the server responded with HTTP 500 and a protobuf body that is not a readable Status \(/,
    );
    // A JSON body mislabelled as protobuf and a protobuf object that is not a Status are not Statuses either.
    expect(protobuf(404, Buffer.from('{"kind":"Status"}'))).toMatchObject({
      statusCode: 404,
      reason: "NotFound",
    });
    const configMap = protobuf(
      403,
      encodeObject({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "x" } }),
    );
    expect(configMap).toMatchObject({ statusCode: 403, reason: "Forbidden" });
    expect(configMap.message).toContain('the body is a "ConfigMap", not a Status');
    expect(protobuf(503, new Uint8Array())).toMatchObject({ statusCode: 503, bodyExcerpt: undefined });
  });

  it("without a protobuf decoder a protobuf Status falls back to the HTTP code, saying why", () => {
    const body = encodeObject(statusBody(409, "Conflict", "Apply failed"));
    const error = apiErrorFromResponse({
      statusCode: 409,
      contentType: PROTOBUF,
      retryAfter: undefined,
      body,
    });
    expect(error).toMatchObject({ statusCode: 409, reason: "Conflict" });
    expect(error.message).toContain("(no protobuf codec is configured)");
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds and HTTP dates", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("7", now)).toBe(7);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:05 GMT", now)).toBe(5);
    expect(parseRetryAfter("Wed, 31 Dec 2025 23:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
