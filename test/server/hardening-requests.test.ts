/**
 * Hardening, part 1: request targets and methods that code under test gets wrong. Malformed targets
 * are answered (400/404) instead of crashing the server; dot segments are names, never the parent
 * path (so `DELETE …/configmaps/..` cannot delete the namespace); percent-escapes are decoded per
 * segment; unknown methods, CONNECT and writes to collections are 405; long query strings are
 * served; plain HTTP on the HTTPS port gets Go's answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "../support/raw-http.js";
import { startTarget, type TestTarget, targetKind, uniqueName } from "../support/target.js";

let t: TestTarget;
const ns = uniqueName("hard-req");
const cms = `/api/v1/namespaces/${ns}/configmaps`;

beforeAll(async () => {
  t = await startTarget();
  expect((await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } })).status).toBe(201);
  await t.call("POST", cms, { body: { metadata: { name: "pct-existing" }, data: { a: "1" } } });
});
afterAll(async () => {
  await t?.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t?.close();
});

describe("request targets", () => {
  it.each(["//", "///", "//[", "//a:99999/", "//a:b/", "//user@:80/"])(
    "answers %s with 404 and keeps serving",
    async (target) => {
      expect((await rawRequest(t, "GET", target)).status).toBe(404);
      expect((await t.call("GET", "/version")).status).toBe(200);
    },
  );

  it.each(["//%zz", "http://[::1", `${cms}/%zz`])("answers %s with 400", async (target) => {
    expect((await rawRequest(t, "GET", target)).status).toBe(400);
  });

  // Reason for reference-only: kube-apiserver's Go HTTP server answers these in plain text.
  it.runIf(targetKind === "reference")(
    "answers malformed targets with a Status (reference server)",
    async () => {
      const res = await rawRequest(t, "GET", "//[");
      expect(res.json).toMatchObject({ kind: "Status", code: 404 });
    },
  );

  it("does not serve paths with empty segments as if they were normalised", async () => {
    expect((await rawRequest(t, "GET", "//a/api/v1/namespaces")).status).toBe(404);
    expect((await rawRequest(t, "GET", "/api//v1//namespaces")).status).toBe(404);
  });
});

describe("dot segments and escapes", () => {
  it.each([
    ["..", "may not be '..'"],
    ["%2e%2e", "may not be '..'"],
    [".", "may not be '.'"],
  ])("refuses the object name %s", async (segment, why) => {
    const name = segment.startsWith("%") ? ".." : segment;
    const bodies: Record<string, { body: string; headers: Record<string, string> }> = {
      PUT: { body: JSON.stringify({ metadata: { name } }), headers: { "Content-Type": "application/json" } },
      PATCH: { body: "{}", headers: { "Content-Type": "application/merge-patch+json" } },
    };
    for (const method of ["GET", "DELETE", "PUT", "PATCH"]) {
      const res = await rawRequest(t, method, `${cms}/${segment}`, bodies[method] ?? {});
      expect([method, res.status]).toEqual([method, 400]);
      if (method !== "PUT") expect(res.json.message).toBe(`Name parameter invalid: "${name}": ${why}`);
    }
    // Nothing was deleted: the namespace and its ConfigMap are still there.
    expect((await t.call("GET", `/api/v1/namespaces/${ns}`)).json.status.phase).toBe("Active");
    expect((await t.call("GET", `${cms}/pct-existing`)).status).toBe(200);
  });

  it("refuses a namespace named .. and names with %", async () => {
    expect((await rawRequest(t, "DELETE", "/api/v1/namespaces/..")).json.message).toBe(
      `Name parameter invalid: "..": may not be '..'`,
    );
    const pct = await rawRequest(t, "GET", `${cms}/a%25b`);
    expect([pct.status, pct.json.message]).toEqual([
      400,
      `Name parameter invalid: "a%b": may not contain '%'`,
    ]);
  });

  it("decodes percent-escapes in a segment", async () => {
    const res = await rawRequest(t, "GET", `${cms}/pct-ex%69sting`);
    expect([res.status, res.json.metadata.name]).toEqual([200, "pct-existing"]);
  });
});

describe("methods", () => {
  it.each(["OPTIONS", "TRACE", "FOO"])("answers %s with a 405 Status", async (method) => {
    const res = await rawRequest(t, method, "/api/v1/namespaces");
    expect(res.status).toBe(405);
    expect(res.json).toMatchObject({ kind: "Status", reason: "MethodNotAllowed", code: 405 });
  });

  it("answers CONNECT with a 405 Status", async () => {
    const res = await rawRequest(t, "CONNECT", "/api/v1/namespaces");
    expect([res.status, res.json?.reason]).toEqual([405, "MethodNotAllowed"]);
  });

  it("refuses PUT and PATCH on a collection", async () => {
    const put = await t.call("PUT", cms, { body: { metadata: { name: "x" } } });
    expect([put.status, put.json.reason]).toEqual([405, "MethodNotAllowed"]);
    const patch = await t.call("PATCH", `${cms}?fieldManager=m`, {
      rawBody: JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "x" } }),
      contentType: "application/apply-patch+yaml",
    });
    expect([patch.status, patch.json.reason]).toEqual([405, "MethodNotAllowed"]);
  });
});

describe("transport", () => {
  it("serves a 20 KB query string", async () => {
    const res = await rawRequest(t, "GET", `/api/v1/namespaces?x=${"a".repeat(20_000)}`);
    expect(res.status).toBe(200);
  });

  it("answers plain HTTP on the HTTPS port with Go's 400", async () => {
    const res = await rawRequest(t, "GET", "/version", { plain: true });
    expect(res.status).toBe(400);
    expect(res.body).toContain("Client sent an HTTP request to an HTTPS server.");
  });
});
