import type http from "node:http";
import net from "node:net";
import { decodeObject, encodeObject } from "@kubesdk/models";
import { describe, expect, it } from "vitest";
import {
  ApiError,
  ConnectionError,
  type DispatcherFactory,
  isNotFound,
  isTooManyRequests,
  RequestAbortedError,
  ResponseDecodeError,
  TimeoutError,
} from "../src/index.js";
import { createDispatcher } from "../src/internal.js";
import { useHarness } from "./helpers/harness.js";
import { rejection } from "./helpers/rejection.js";
import { type Handler, sendJson, statusBody } from "./helpers/test-server.js";

const harness = useHarness();

/** Answers the n-th request (0-based) with `handlers[n]`, the last one for all later requests. */
function sequence(...handlers: ((res: http.ServerResponse) => void)[]): Handler {
  let n = 0;
  return (_seen, _req, res) => {
    const h = handlers[Math.min(n++, handlers.length - 1)];
    h?.(res);
  };
}

const PROTOBUF = "application/vnd.kubernetes.protobuf";
const ok = (res: http.ServerResponse) => sendJson(res, 200, { kind: "ConfigMap" });

describe("retries", () => {
  it("retries a GET after 429 and waits at least Retry-After", async () => {
    const s = await harness.serve(
      sequence(
        (res) =>
          sendJson(res, 429, statusBody(429, "TooManyRequests", "Too many requests"), { "retry-after": "1" }),
        ok,
      ),
    );
    const res = await harness.transport(s.url).requestJson({
      method: "GET",
      path: "/api/v1/namespaces/default/configmaps/x",
    });
    expect(res.status).toBe(200);
    expect(s.requests).toHaveLength(2);
    const [first, second] = s.requests;
    // Lower bound on the server's own clock; the client waits ≥ 1000 ms after the 429 arrived.
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(1000);
  });

  it("retries a GET on 503 and on 504 too-large-RV until the budget is spent", async () => {
    const tooLarge = statusBody(504, "Timeout", "Timeout: Too large resource version: 9, current: 3", {
      causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }],
    });
    const s = await harness.serve(
      sequence(
        (res) => sendJson(res, 503, statusBody(503, "ServiceUnavailable", "unavailable")),
        (res) => sendJson(res, 504, tooLarge),
        ok,
      ),
    );
    expect(
      (
        await harness.transport(s.url).request({
          method: "GET",
          path: "/api/v1/pods",
          query: { resourceVersion: "9" },
        })
      ).status,
    ).toBe(200);
    expect(s.requests).toHaveLength(3);

    const always = await harness.serve((_s, _r, res) =>
      sendJson(res, 503, statusBody(503, "ServiceUnavailable", "still down")),
    );
    const err = await rejection(harness.transport(always.url).request({ method: "GET", path: "/api" }));
    expect(err).toMatchObject({ statusCode: 503, reason: "ServiceUnavailable" });
    expect(always.requests).toHaveLength(3);
  });

  it("does not retry a POST the server received, whatever happened next", async () => {
    const unavailable = await harness.serve((_s, _r, res) =>
      sendJson(res, 503, statusBody(503, "ServiceUnavailable", "x")),
    );
    await rejection(
      harness.transport(unavailable.url).request({ method: "POST", path: "/api/v1/namespaces", body: {} }),
    );
    expect(unavailable.requests).toHaveLength(1);

    const dropping = await harness.serve((_seen, req) => req.socket.destroy());
    const err = await rejection(
      harness.transport(dropping.url).request({ method: "POST", path: "/api/v1/namespaces", body: {} }),
    );
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err).toMatchObject({ requestSent: true });
    expect(dropping.requests).toHaveLength(1);
  });

  it("retries a GET whose connection was dropped", async () => {
    const dropping = await harness.serve((_seen, req) => req.socket.destroy());
    const err = await rejection(harness.transport(dropping.url).request({ method: "GET", path: "/api" }));
    expect(err).toBeInstanceOf(ConnectionError);
    expect(dropping.requests).toHaveLength(3);
  });

  it("retries even a POST when the connection is refused, and counts every attempt", async () => {
    const port = await closedPort();
    let dispatches = 0;
    const counting: DispatcherFactory = (settings, cert) =>
      createDispatcher(settings, cert).compose((dispatch) => (opts, handler) => {
        dispatches++;
        return dispatch(opts, handler);
      });
    const t = harness.transport(`http://127.0.0.1:${port}`, { dispatcherFactory: counting });
    const err = await rejection(t.request({ method: "POST", path: "/api/v1/namespaces", body: {} }));
    expect(err).toMatchObject({ code: "CONNECTION_REFUSED", requestSent: false });
    expect(dispatches).toBe(3);
  });

  it("names the failed request and how often it was tried in the error", async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}`;
    const retried = await rejection(harness.transport(url).request({ method: "GET", path: "/api/v1/pods" }));
    expect(retried).toMatchObject({ request: `GET ${url}/api/v1/pods`, tries: 3 });
    expect((retried as Error).message).toMatch(
      new RegExp(`^GET ${url}/api/v1/pods: .*ECONNREFUSED.* \\(3 tries in \\d+\\.\\d s\\)$`),
    );
    const once = await rejection(
      harness.transport(url, { retries: false }).request({ method: "GET", path: "/api" }),
    );
    expect(once).toMatchObject({ request: `GET ${url}/api`, tries: 1 });
    expect((once as Error).message).not.toContain("tries");
  });

  it("can be disabled per transport and per call", async () => {
    const s = await harness.serve((_s, _r, res) =>
      sendJson(res, 429, statusBody(429, "TooManyRequests", "x")),
    );
    expect(
      isTooManyRequests(
        await rejection(harness.transport(s.url, { retries: false }).request({ method: "GET", path: "/a" })),
      ),
    ).toBe(true);
    expect(s.requests).toHaveLength(1);
    await rejection(harness.transport(s.url).request({ method: "GET", path: "/a" }, { retries: false }));
    expect(s.requests).toHaveLength(2);
  });

  it("an abort ends the wait between retries", async () => {
    const s = await harness.serve((_s, _r, res) =>
      sendJson(res, 429, statusBody(429, "TooManyRequests", "x"), { "retry-after": "30" }),
    );
    const controller = new AbortController();
    const pending = harness
      .transport(s.url)
      .request({ method: "GET", path: "/a" }, { signal: controller.signal });
    await s.waitForRequests(1);
    controller.abort();
    expect(await rejection(pending)).toBeInstanceOf(RequestAbortedError);
    expect(s.requests).toHaveLength(1);
  });
});

describe("errors", () => {
  it("turns non-Status bodies into ApiErrors with an excerpt", async () => {
    const s = await harness.serve(
      sequence(
        (res) => {
          res.writeHead(502, { "content-type": "text/html" });
          res.end("<html><body><h1>502 Bad Gateway</h1></body></html>");
        },
        (res) => {
          res.writeHead(404, { "content-type": "text/plain" });
          res.end("404 page not found");
        },
        (res) => {
          res.writeHead(500);
          res.end();
        },
        (res) => res.writeHead(500, { "content-type": PROTOBUF }).end("k8s\0garbage"),
      ),
    );
    const t = harness.transport(s.url, { retries: false });
    const gateway = await rejection(t.request({ method: "GET", path: "/api" }));
    expect(gateway).toBeInstanceOf(ApiError);
    expect(gateway).toMatchObject({
      statusCode: 502,
      reason: "InternalError",
      bodyExcerpt: "<html><body><h1>502 Bad Gateway</h1></body></html>",
    });
    const notFound = await rejection(t.request({ method: "GET", path: "/apis/x" }));
    expect(isNotFound(notFound)).toBe(true);
    expect(notFound).toMatchObject({
      bodyExcerpt: "404 page not found",
      request: { method: "GET", path: "/apis/x" },
    });
    const empty = await rejection(t.request({ method: "GET", path: "/api" }));
    expect(empty).toMatchObject({ statusCode: 500, reason: "InternalError", bodyExcerpt: undefined });
    // A protobuf body that is not a decodable Status: the HTTP code and a hex excerpt.
    const protobuf = await rejection(t.request({ method: "GET", path: "/api" }));
    expect(protobuf).toMatchObject({
      statusCode: 500,
      reason: "InternalError",
      bodyExcerpt: "6b38730067617262616765",
    });
  });

  it("reads a Status body with causes", async () => {
    const s = await harness.serve((_s, _r, res) =>
      sendJson(
        res,
        409,
        statusBody(409, "AlreadyExists", 'configmaps "x" already exists', { name: "x", kind: "configmaps" }),
      ),
    );
    const err = await rejection(
      harness.transport(s.url).request({ method: "POST", path: "/api/v1/namespaces/d/configmaps", body: {} }),
    );
    expect(err).toMatchObject({
      statusCode: 409,
      reason: "AlreadyExists",
      message: 'configmaps "x" already exists',
      details: { name: "x" },
    });
  });

  it("checks a Status body: ill-typed fields are dropped and named, the HTTP code stands in", async () => {
    const malformed = {
      kind: "Status",
      apiVersion: "v1",
      status: "Failure",
      message: "the object has been modified",
      reason: 42,
      code: "409",
      details: { name: "x", causes: [{ reason: "FieldValueInvalid", field: 7 }], retryAfterSeconds: "soon" },
    };
    const s = await harness.serve((_s, _r, res) => sendJson(res, 409, malformed));
    const err = await rejection(harness.transport(s.url).request({ method: "PUT", path: "/a", body: {} }));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      code: "API_ERROR",
      statusCode: 409,
      reason: "Conflict",
      details: { name: "x" },
    });
    expect((err as ApiError).causes).toEqual([{ reason: "FieldValueInvalid" }]);
    expect((err as ApiError).retryAfterSeconds).toBeUndefined();
    const message = (err as ApiError).message;
    expect(message).toMatch(/^the object has been modified \[malformed Status: /);
    for (const field of ["reason: ", "code: ", "details.causes.0.field: "]) expect(message).toContain(field);
  });

  it("reads a protobuf Status body like a JSON one with the protobuf decoder it is given", async () => {
    const notFound = statusBody(404, "NotFound", 'configmaps "missing" not found', {
      name: "missing",
      kind: "configmaps",
    });
    const s = await harness.serve((_s, _r, res) =>
      res.writeHead(404, { "content-type": PROTOBUF }).end(encodeObject(notFound)),
    );
    const path = "/api/v1/namespaces/d/configmaps/missing";
    const transport = harness.transport(s.url, { protobufDecoder: decodeObject });
    const missing = await rejection(transport.request({ method: "GET", path }));
    expect(isNotFound(missing)).toBe(true);
    expect(missing).toMatchObject({
      message: 'configmaps "missing" not found',
      details: { name: "missing", kind: "configmaps" },
      request: { method: "GET", path },
      bodyExcerpt: undefined,
    });
  });

  it("requestJson refuses a 200 that is not JSON", async () => {
    const s = await harness.serve((_s, _r, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>login page</html>");
    });
    const err = await rejection(harness.transport(s.url).requestJson({ method: "GET", path: "/api" }));
    expect(err).toBeInstanceOf(ResponseDecodeError);
    expect(err).toMatchObject({ contentType: "text/html" });
    expect((err as Error).message).toContain("<html>login page</html>");
  });

  it("times out waiting for headers", async () => {
    const s = await harness.serve(() => {});
    const t = harness.transport(s.url, { timeouts: { requestMs: 100 } });
    const err = await rejection(t.request({ method: "GET", path: "/api" }));
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ code: "REQUEST_TIMEOUT", timeoutMs: 100 });
  });

  it("reports an aborted request as RequestAbortedError", async () => {
    const s = await harness.serve(() => {});
    const controller = new AbortController();
    const pending = harness
      .transport(s.url)
      .request({ method: "GET", path: "/api" }, { signal: controller.signal });
    await s.waitForRequests(1);
    controller.abort(new Error("user gave up"));
    const err = await rejection(pending);
    expect(err).toBeInstanceOf(RequestAbortedError);
    expect((err as Error).cause).toEqual(new Error("user gave up"));
  });

  it("keeps a server path prefix and sends the query", async () => {
    const s = await harness.serve((_s, _r, res) => sendJson(res, 200, {}));
    const t = harness.transport(`${s.url}/k8s/clusters/c-1/`);
    await t.request({ method: "GET", path: "/api/v1/pods", query: { limit: 500, labelSelector: "a=b" } });
    expect(s.requests[0]?.url).toBe("/k8s/clusters/c-1/api/v1/pods?limit=500&labelSelector=a%3Db");
  });
});

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
