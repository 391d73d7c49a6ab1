/**
 * Hardening, part 4: who may do what. The OpenAPI documents are not served to anonymous users;
 * impersonation is refused unless the requester is an administrator, and an impersonated user has
 * no permissions (as without RBAC bindings); the fault API (reference server only) needs the admin
 * token and validates its bodies; request logs redact credentials in query strings.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, targetKind } from "../support/target.js";

let t: TestTarget;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(async () => t?.close());

describe("anonymous users and impersonation", () => {
  it("does not serve /openapi/v3 to anonymous users", async () => {
    const res = await t.call("GET", "/openapi/v3", { anonymous: true });
    expect([res.status, res.json.message]).toEqual([
      403,
      'forbidden: User "system:anonymous" cannot get path "/openapi/v3"',
    ]);
    expect((await t.call("GET", "/openapi/v3")).status).toBe(200);
  });

  it("gives an impersonated user no permissions", async () => {
    const res = await t.call("GET", "/api/v1/namespaces", { headers: { "Impersonate-User": "someone" } });
    expect([res.status, res.json.message]).toEqual([
      403,
      'namespaces is forbidden: User "someone" cannot list resource "namespaces" in API group "" at the cluster scope',
    ]);
  });

  it("lets an administrator impersonate a member of system:masters", async () => {
    const res = await t.call("GET", "/api/v1/namespaces", {
      headers: { "Impersonate-User": "someone", "Impersonate-Group": "system:masters" },
    });
    expect(res.status).toBe(200);
  });

  it("refuses impersonation by anonymous users", async () => {
    const res = await t.call("GET", "/api/v1/namespaces", {
      anonymous: true,
      headers: { "Impersonate-User": "admin" },
    });
    expect(res.status).toBe(403);
  });
});

// Reason for reference-only: the fault API and the request log are the reference server's own.
describe.runIf(targetKind === "reference")("fault API and request log", () => {
  let faults: TestTarget;
  const log: string[] = [];
  beforeAll(async () => {
    faults = await startTarget({
      faultApi: true,
      tokens: { "viewer-token": { name: "viewer", groups: ["viewers"] } },
      log: (line) => log.push(line),
    });
  });
  afterAll(async () => faults?.close());

  it("serves the fault API to administrators only", async () => {
    expect(
      (await faults.call("POST", "/_kubesdk/faults/compact", { body: {}, anonymous: true })).status,
    ).toBe(403);
    const viewer = await faults.call("POST", "/_kubesdk/faults/compact", {
      body: {},
      anonymous: true,
      headers: { authorization: "Bearer viewer-token" },
    });
    expect(viewer.status).toBe(403);
    expect((await faults.call("POST", "/_kubesdk/faults/compact", { body: {} })).status).toBe(200);
  });

  it("refuses malformed fault bodies with 400 and keeps serving", async () => {
    const cases: unknown[] = [
      null,
      [1],
      { count: 1, kind: { status: 418 } },
      { count: -1, kind: { status: 503 } },
      { count: 1, kind: { status: 503 }, match: "configmaps" },
      { count: 1, kind: { status: 503 }, probability: 2 },
    ];
    for (const body of cases) {
      const res = await faults.call("POST", "/_kubesdk/faults/fail-next", { rawBody: JSON.stringify(body) });
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
    }
    expect((await faults.call("POST", "/_kubesdk/faults/latency", { body: { ms: "soon" } })).status).toBe(
      400,
    );
    expect((await faults.call("GET", "/api/v1/namespaces")).status).toBe(200);
  });

  it("redacts credentials in logged query strings", async () => {
    await faults.call("GET", "/api/v1/namespaces?access_token=s3cret&limit=1");
    const line = log.find((l) => l.includes("/api/v1/namespaces?"));
    expect(line).toContain("access_token=REDACTED");
    expect(line).toContain("limit=1");
    expect(log.join("\n")).not.toContain("s3cret");
  });
});
