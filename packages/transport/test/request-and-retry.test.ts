import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  ApiError,
  apiErrorFromStatus,
  ConnectionError,
  InvalidRequestError,
  TimeoutError,
  VERSION,
} from "../src/index.js";
import {
  buildHttpRequest,
  DEFAULT_RETRY_OPTIONS,
  defaultUserAgent,
  isRetryable,
  resolveRetryOptions,
  retryDelayMs,
  withCredentials,
} from "../src/internal.js";

const context = { basePath: "", userAgent: "ua/1" };

describe("buildHttpRequest (pure)", () => {
  it("builds method, path with query, default headers and a JSON body", () => {
    const parts = buildHttpRequest(
      {
        method: "POST",
        path: "/api/v1/namespaces/default/configmaps",
        query: { dryRun: "All", fieldManager: "me", limit: 5, watch: false, skip: undefined },
        body: { kind: "ConfigMap" },
      },
      context,
    );
    expect(parts).toEqual({
      method: "POST",
      path: "/api/v1/namespaces/default/configmaps?dryRun=All&fieldManager=me&limit=5&watch=false",
      headers: { "user-agent": "ua/1", accept: "application/json", "content-type": "application/json" },
      body: '{"kind":"ConfigMap"}',
    });
  });

  it("encodes selectors, repeats array keys and keeps a server path prefix", () => {
    const parts = buildHttpRequest(
      {
        method: "GET",
        path: "/api/v1/pods",
        query: { labelSelector: "app in (a,b),tier!=x", fieldSelector: ["a=b", "c=d"] },
      },
      { ...context, basePath: "/k8s/clusters/c-1" },
    );
    expect(parts.path).toBe(
      "/k8s/clusters/c-1/api/v1/pods?labelSelector=app+in+%28a%2Cb%29%2Ctier%21%3Dx&fieldSelector=a%3Db&fieldSelector=c%3Dd",
    );
    expect(new URLSearchParams(parts.path.split("?")[1]).get("labelSelector")).toBe("app in (a,b),tier!=x");
  });

  it("sends bytes and text as given, with the request's content type and headers winning", () => {
    const bytes = Uint8Array.of(1, 2, 3);
    const parts = buildHttpRequest(
      {
        method: "PATCH",
        path: "/apis/apps/v1/namespaces/ns/deployments/d",
        body: bytes,
        contentType: "application/apply-patch+yaml",
        accept: "application/vnd.kubernetes.protobuf, application/json",
        headers: { "X-Extra": ["a", "b"], "User-Agent": "custom" },
      },
      context,
    );
    expect(parts.body).toBe(bytes);
    expect(parts.headers).toEqual({
      "user-agent": "custom",
      accept: "application/vnd.kubernetes.protobuf, application/json",
      "content-type": "application/apply-patch+yaml",
      "x-extra": ["a", "b"],
    });
  });

  it("adds impersonation headers", () => {
    const parts = buildHttpRequest(
      { method: "GET", path: "/api" },
      {
        ...context,
        impersonation: { user: "bob", uid: "42", groups: ["g1", "g2"], extra: { "scopes/x": ["s"] } },
      },
    );
    expect(parts.headers).toMatchObject({
      "impersonate-user": "bob",
      "impersonate-uid": "42",
      "impersonate-group": ["g1", "g2"],
      "impersonate-extra-scopes%2fx": "s",
    });
  });

  it("rejects bad requests with a typed error", () => {
    expect(() => buildHttpRequest({ method: "GET", path: "api/v1" }, context)).toThrow(InvalidRequestError);
    expect(() => buildHttpRequest({ method: "TRACE" as "GET", path: "/" }, context)).toThrow(
      InvalidRequestError,
    );
    expect(() =>
      buildHttpRequest({ method: "GET", path: "/", headers: { x: "a\r\nb: c" } }, context),
    ).toThrow(/line break/);
  });

  it("withCredentials adds Authorization unless the request has one", () => {
    const parts = buildHttpRequest({ method: "GET", path: "/api" }, context);
    expect(withCredentials(parts, { authorization: "Bearer t" }).headers.authorization).toBe("Bearer t");
    expect(withCredentials(parts, {})).toBe(parts);
    const own = buildHttpRequest(
      { method: "GET", path: "/api", headers: { Authorization: "Bearer mine" } },
      context,
    );
    expect(withCredentials(own, { authorization: "Bearer t" }).headers.authorization).toBe("Bearer mine");
  });
});

describe("user agent and version", () => {
  it("has the documented shape and matches package.json", () => {
    expect(defaultUserAgent({ node: "20.20.2", platform: "linux", arch: "x64" })).toBe(
      `kubesdk/${VERSION} (node 20.20.2; linux/x64)`,
    );
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    expect(VERSION).toBe(pkg.version);
  });
});

describe("retry policy", () => {
  const status = (code: number, reason: string, message = "m", details?: object) =>
    apiErrorFromStatus(
      { kind: "Status", apiVersion: "v1", code, reason, message, ...(details ? { details } : {}) },
      { httpCode: code },
    );
  const refused = new ConnectionError("CONNECTION_REFUSED", "refused", false);
  const reset = new ConnectionError("CONNECTION_RESET", "reset", true);

  it("retries reads on 429, 503, 504 too-large-RV and refused/reset connections", () => {
    const retryable = [
      status(429, "TooManyRequests"),
      status(503, "ServiceUnavailable"),
      status(504, "Timeout", "Timeout: Too large resource version: 2, current: 1"),
      refused,
      reset,
      new ConnectionError("DNS_LOOKUP_FAILED", "dns", false),
      new ConnectionError("CONNECT_TIMEOUT", "t", false),
    ];
    for (const err of retryable) expect([err.message, isRetryable(err, "GET")]).toEqual([err.message, true]);
    const final = [
      status(404, "NotFound"),
      status(500, "InternalError"),
      status(504, "Timeout"),
      new TimeoutError("REQUEST_TIMEOUT", 10),
      new ConnectionError("NETWORK_ERROR", "?", true),
      new Error("x"),
    ];
    for (const err of final) expect([err.message, isRetryable(err, "GET")]).toEqual([err.message, false]);
  });

  it("retries writes only when the request provably never left", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"] as const) {
      expect(isRetryable(refused, method)).toBe(true);
      expect(isRetryable(new ConnectionError("CONNECT_TIMEOUT", "t", false), method)).toBe(true);
      expect(isRetryable(reset, method)).toBe(false);
      expect(isRetryable(status(429, "TooManyRequests"), method)).toBe(false);
      expect(isRetryable(status(503, "ServiceUnavailable"), method)).toBe(false);
    }
  });

  it("delays: Retry-After wins, else doubling with jitter in [d, 2d) capped", () => {
    const options = { attempts: 10, minDelayMs: 100, maxDelayMs: 1000 };
    const limited = new ApiError({
      status: { kind: "Status", apiVersion: "v1" },
      statusCode: 429,
      reason: "TooManyRequests",
      message: "m",
      retryAfterSeconds: 3,
    });
    expect(retryDelayMs(limited, 0, options)).toBe(3000);
    expect([0, 1, 2, 3, 4].map((i) => retryDelayMs(refused, i, options, () => 0))).toEqual([
      100, 200, 400, 800, 1000,
    ]);
    expect([0, 1, 2, 3, 4].map((i) => retryDelayMs(refused, i, options, () => 0.999))).toEqual([
      199.9, 399.8, 799.6, 1000, 1000,
    ]);
  });

  it("resolves options", () => {
    expect(resolveRetryOptions(undefined)).toEqual(DEFAULT_RETRY_OPTIONS);
    expect(resolveRetryOptions({ attempts: 2 })).toEqual({ ...DEFAULT_RETRY_OPTIONS, attempts: 2 });
    expect(resolveRetryOptions(false)).toBeUndefined();
    expect(resolveRetryOptions({ attempts: 1 })).toBeUndefined();
  });
});
