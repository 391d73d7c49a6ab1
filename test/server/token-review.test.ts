/**
 * TokenReview, the kind added as one strategy file (packages/server/src/registry/authentication/
 * tokenreviews.ts): discovery lists it with create as its only verb, a review answers whose token
 * it is without storing anything, and a review without a token is a 400.
 */
import { describe, expect, it } from "vitest";
import { useTableSuite } from "./table-read.js";

const s = useTableSuite("token-review");
const REVIEWS = "/apis/authentication.k8s.io/v1/tokenreviews";

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes.
type Json = any;

const review = (token: string | undefined) =>
  s.t.call("POST", REVIEWS, {
    body: {
      apiVersion: "authentication.k8s.io/v1",
      kind: "TokenReview",
      spec: token === undefined ? {} : { token },
    },
  });

describe("TokenReview", () => {
  it("is served by authentication.k8s.io/v1 as a cluster-scoped kind whose only verb is create", async () => {
    const res = await s.t.call("GET", "/apis/authentication.k8s.io/v1");
    expect(res.status, res.text).toBe(200);
    const entry = (res.json.resources as Json[]).find((r) => r.name === "tokenreviews");
    expect(entry).toMatchObject({ kind: "TokenReview", namespaced: false, verbs: ["create"] });
    const list = await s.t.call("GET", REVIEWS);
    expect(list.status, list.text).toBe(405);
  });

  it("answers with the user a service account token belongs to", async () => {
    const sa = await s.t.call("POST", `/api/v1/namespaces/${s.ns}/serviceaccounts`, {
      body: { metadata: { name: "reviewed" } },
    });
    expect(sa.status, sa.text).toBe(201);
    const issued = await s.t.call("POST", `/api/v1/namespaces/${s.ns}/serviceaccounts/reviewed/token`, {
      body: { apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest", spec: {} },
    });
    expect(issued.status, issued.text).toBe(201);
    const res = await review(issued.json.status.token as string);
    expect(res.status, res.text).toBe(201);
    expect(res.json.kind).toBe("TokenReview");
    expect(res.json.status.authenticated).toBe(true);
    const user: Json = res.json.status.user;
    expect(user.username).toBe(`system:serviceaccount:${s.ns}:reviewed`);
    expect(user.uid).toBe(sa.json.metadata.uid);
    expect(user.groups).toEqual([
      "system:serviceaccounts",
      `system:serviceaccounts:${s.ns}`,
      "system:authenticated",
    ]);
  });

  it("reviews a token nobody holds as not authenticated: an empty user and the error", async () => {
    const res = await review("not-a-token-anyone-holds");
    expect(res.status, res.text).toBe(201);
    expect(res.json.status).toEqual({ user: {}, error: "invalid bearer token" });
  });

  it("refuses a review without a token with 400", async () => {
    const res = await review(undefined);
    expect(res.status, res.text).toBe(400);
    expect(res.json).toMatchObject({
      kind: "Status",
      reason: "BadRequest",
      message: "token is required for TokenReview in authentication",
    });
  });
});
