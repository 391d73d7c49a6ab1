/**
 * The token a pod's kube-api-access volume carries: the kubelet asks TokenRequest for a token of
 * the pod's ServiceAccount bound to the pod (expiry 3607 s), and TokenReview accepts it as the
 * account's user with the pod's name and uid (packages/server/src/endpoints/token-binding.ts).
 * A binding to a missing pod is 404, to another pod of that name 409, to a ConfigMap 400.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes.
type Json = any;

let t: TestTarget;
let ns: string;
let pod: Json;
let account: Json;

const requestToken = (boundObjectRef: Json) =>
  t.call("POST", `/api/v1/namespaces/${ns}/serviceaccounts/default/token`, {
    body: {
      apiVersion: "authentication.k8s.io/v1",
      kind: "TokenRequest",
      spec: { expirationSeconds: 3607, boundObjectRef },
    },
  });

beforeAll(async () => {
  t = await startTarget();
  ns = uniqueName("sa-token");
  await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
  // kube-apiserver in test:real has no controller-manager making `default`; the reference server does.
  const made = await t.call("POST", `/api/v1/namespaces/${ns}/serviceaccounts`, {
    body: { metadata: { name: "default" } },
  });
  expect([201, 409], made.text).toContain(made.status);
  account = (await t.call("GET", `/api/v1/namespaces/${ns}/serviceaccounts/default`)).json;
  const created = await t.call("POST", `/api/v1/namespaces/${ns}/pods`, {
    body: { metadata: { name: "holder" }, spec: { containers: [{ name: "c", image: "x" }] } },
  });
  expect(created.status, created.text).toBe(201);
  pod = created.json;
});
afterAll(async () => {
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t.close();
});

describe("a pod's projected ServiceAccount token", () => {
  it("is issued bound to the pod and reviewed as the account's user with the pod's name and uid", async () => {
    const ref = { apiVersion: "v1", kind: "Pod", name: "holder", uid: pod.metadata.uid };
    const issued = await requestToken(ref);
    expect(issued.status, issued.text).toBe(201);
    expect(issued.json.spec).toMatchObject({
      audiences: ["https://kubernetes.default.svc.cluster.local"],
      expirationSeconds: 3607,
      boundObjectRef: ref,
    });
    const review = await t.call("POST", "/apis/authentication.k8s.io/v1/tokenreviews", {
      body: {
        apiVersion: "authentication.k8s.io/v1",
        kind: "TokenReview",
        spec: { token: issued.json.status.token },
      },
    });
    expect(review.status, review.text).toBe(201);
    expect(review.json.status.authenticated).toBe(true);
    const user: Json = review.json.status.user;
    expect(user).toMatchObject({
      username: `system:serviceaccount:${ns}:default`,
      uid: account.metadata.uid,
      groups: ["system:serviceaccounts", `system:serviceaccounts:${ns}`, "system:authenticated"],
    });
    expect(Object.keys(user.extra).sort()).toEqual([
      "authentication.kubernetes.io/credential-id",
      "authentication.kubernetes.io/pod-name",
      "authentication.kubernetes.io/pod-uid",
    ]);
    expect(user.extra["authentication.kubernetes.io/pod-name"]).toEqual(["holder"]);
    expect(user.extra["authentication.kubernetes.io/pod-uid"]).toEqual([pod.metadata.uid]);
  });

  it("is refused for a pod that does not exist (404) or whose uid differs (409)", async () => {
    const missing = await requestToken({ apiVersion: "v1", kind: "Pod", name: "nope" });
    expect(missing.status, missing.text).toBe(404);
    expect(missing.json).toMatchObject({ reason: "NotFound", message: 'pods "nope" not found' });
    const other = await requestToken({ apiVersion: "v1", kind: "Pod", name: "holder", uid: "other-uid" });
    expect(other.status, other.text).toBe(409);
    expect(other.json).toMatchObject({
      reason: "Conflict",
      message:
        'Operation cannot be fulfilled on Pod "holder": the UID in the bound object reference (other-uid) does not match the UID in record. The object might have been deleted and then recreated',
      details: { name: "holder", kind: "Pod" },
    });
  });

  it("cannot be bound to a kind other than Pod, Secret or Node (400)", async () => {
    const res = await requestToken({ apiVersion: "v1", kind: "ConfigMap", name: "x" });
    expect(res.status, res.text).toBe(400);
    expect(res.json).toMatchObject({
      reason: "BadRequest",
      message: "cannot bind token to object of type /v1, Kind=ConfigMap",
    });
  });
});
