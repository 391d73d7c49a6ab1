/**
 * The reviews kube-apiserver answers itself, served as kinds of their own (discovery, protobuf
 * bodies, upstream's validation): SubjectAccessReview, LocalSubjectAccessReview,
 * SelfSubjectAccessReview, SelfSubjectRulesReview and SelfSubjectReview. A review and the request it
 * predicts agree, for a user with no permissions and for one in system:masters.
 */
import { encodeObject } from "@kubesdk/models";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

const AUTHZ = "/apis/authorization.k8s.io/v1";
const PB = "application/vnd.kubernetes.protobuf";
let t: TestTarget;
let ns: string;

beforeAll(async () => {
  t = await startTarget();
  ns = uniqueName("reviews");
  await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
});
afterAll(async () => {
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t.close();
});

const listConfigMaps = () => ({ verb: "list", resource: "configmaps", namespace: ns, version: "v1" });

/** What the server decides when it is asked as `user` in `group` (impersonated). */
async function impersonatedList(user: string, group: string): Promise<boolean> {
  const headers = { "Impersonate-User": user, "Impersonate-Group": group };
  const res = await t.call("GET", `/api/v1/namespaces/${ns}/configmaps`, { headers });
  expect([200, 403]).toContain(res.status);
  return res.status === 200;
}

describe("authorization.k8s.io reviews", () => {
  it("are in discovery, each with only the create verb", async () => {
    const groups = (await t.call("GET", "/apis")).json.groups as { name: string }[];
    expect(groups.map((g) => g.name)).toContain("authorization.k8s.io");
    const res = await t.call("GET", AUTHZ);
    expect(res.status).toBe(200);
    const byName = new Map(
      (res.json.resources as { name: string; namespaced: boolean; verbs: string[] }[]).map((r) => [
        r.name,
        r,
      ]),
    );
    for (const name of [
      "subjectaccessreviews",
      "selfsubjectaccessreviews",
      "selfsubjectrulesreviews",
      "localsubjectaccessreviews",
    ]) {
      expect(byName.get(name)?.verbs).toEqual(["create"]);
      expect(byName.get(name)?.namespaced).toBe(name === "localsubjectaccessreviews");
    }
    const authn = await t.call("GET", "/apis/authentication.k8s.io/v1");
    const authnNames = (authn.json.resources as { name: string }[]).map((r) => r.name);
    expect(authnNames).toEqual(expect.arrayContaining(["tokenreviews", "selfsubjectreviews"]));
  });

  it("a SubjectAccessReview agrees with the impersonated request, denied and allowed", async () => {
    for (const group of ["system:authenticated", "system:masters"]) {
      const user = uniqueName("someone");
      const spec = { resourceAttributes: listConfigMaps(), user, groups: [group] };
      const res = await t.call("POST", `${AUTHZ}/subjectaccessreviews`, { body: { spec } });
      expect(res.status).toBe(201);
      expect(res.json.kind).toBe("SubjectAccessReview");
      expect(res.json.status.allowed).toBe(await impersonatedList(user, group));
      expect(res.json.status.allowed).toBe(group === "system:masters");
    }
  });

  it("a LocalSubjectAccessReview answers in its namespace and echoes it", async () => {
    const spec = { resourceAttributes: listConfigMaps(), user: "nobody", groups: ["system:authenticated"] };
    const res = await t.call("POST", `${AUTHZ}/namespaces/${ns}/localsubjectaccessreviews`, {
      body: { spec },
    });
    expect(res.status).toBe(201);
    expect(res.json.metadata.namespace).toBe(ns);
    expect(res.json.status.allowed).toBe(false);
  });

  it("a LocalSubjectAccessReview about another namespace is invalid", async () => {
    const spec = {
      resourceAttributes: { ...listConfigMaps(), namespace: "elsewhere" },
      user: "nobody",
    };
    const res = await t.call("POST", `${AUTHZ}/namespaces/${ns}/localsubjectaccessreviews`, {
      body: { spec },
    });
    expect(res.status).toBe(422);
    expect(res.json.reason).toBe("Invalid");
    expect(res.json.details.causes).toEqual([
      {
        reason: "FieldValueInvalid",
        message: 'Invalid value: "elsewhere": must match metadata.namespace',
        field: "spec.resourceAttributes.namespace",
      },
    ]);
  });

  it("a SubjectAccessReview without attributes or user is invalid, as upstream words it", async () => {
    const res = await t.call("POST", `${AUTHZ}/subjectaccessreviews`, { body: { spec: {} } });
    expect(res.status).toBe(422);
    const exactlyOne = "exactly one of nonResourceAttributes or resourceAttributes must be specified";
    const noUser = "at least one of user or group must be specified";
    expect(res.json.message).toBe(
      `.authorization.k8s.io "" is invalid: [spec: Invalid value: null: ${exactlyOne}, spec.user: Invalid value: "": ${noUser}]`,
    );
    expect(res.json.details).toEqual({
      group: "authorization.k8s.io",
      causes: [
        { reason: "FieldValueInvalid", message: `Invalid value: null: ${exactlyOne}`, field: "spec" },
        { reason: "FieldValueInvalid", message: `Invalid value: "": ${noUser}`, field: "spec.user" },
      ],
    });
  });

  it("a review asking about both a resource and a path is invalid, and so is a named one", async () => {
    const path = { path: "/healthz", verb: "get" };
    const both = await t.call("POST", `${AUTHZ}/subjectaccessreviews`, {
      body: { spec: { resourceAttributes: listConfigMaps(), nonResourceAttributes: path, user: "u" } },
    });
    expect(both.status).toBe(422);
    expect(both.json.details.causes).toEqual([
      {
        reason: "FieldValueInvalid",
        message:
          'Invalid value: {"Path":"/healthz","Verb":"get"}: exactly one of nonResourceAttributes or resourceAttributes must be specified',
        field: "spec",
      },
    ]);
    const named = await t.call("POST", `${AUTHZ}/selfsubjectaccessreviews`, {
      body: { metadata: { name: "n" }, spec: { resourceAttributes: listConfigMaps() } },
    });
    expect(named.status).toBe(422);
    expect(named.json.details.causes.map((c: { field: string }) => c.field)).toEqual(["metadata"]);
    expect(named.json.message).toMatch(/: must be empty$/);
  });

  it("a SelfSubjectAccessReview answers for the requester; a SelfSubjectRulesReview lists rules", async () => {
    const self = await t.call("POST", `${AUTHZ}/selfsubjectaccessreviews`, {
      body: { spec: { resourceAttributes: listConfigMaps() } },
    });
    expect(self.status).toBe(201);
    expect(self.json.status.allowed).toBe(true);
    const rules = await t.call("POST", `${AUTHZ}/selfsubjectrulesreviews`, {
      body: { spec: { namespace: ns } },
    });
    expect(rules.status).toBe(201);
    const resourceRules = rules.json.status.resourceRules as { verbs: string[]; resources?: string[] }[];
    expect(resourceRules.some((r) => r.verbs.includes("*") && r.resources?.includes("*"))).toBe(true);
  });

  it("a SubjectAccessReview in protobuf is answered", async () => {
    const review = {
      apiVersion: "authorization.k8s.io/v1",
      kind: "SubjectAccessReview",
      metadata: {},
      spec: { resourceAttributes: listConfigMaps(), user: "nobody", groups: ["system:authenticated"] },
    };
    const res = await t.call("POST", `${AUTHZ}/subjectaccessreviews`, {
      rawBody: Buffer.from(encodeObject(review)),
      contentType: PB,
    });
    expect(res.status).toBe(201);
    expect(res.json.status.allowed).toBe(false);
  });
});

describe("subresource bodies in protobuf (client-go sends them so)", () => {
  it("serviceaccounts/token accepts a protobuf TokenRequest", async () => {
    await t.call("POST", `/api/v1/namespaces/${ns}/serviceaccounts`, { body: { metadata: { name: "sa" } } });
    const request = {
      apiVersion: "authentication.k8s.io/v1",
      kind: "TokenRequest",
      metadata: {},
      spec: { audiences: [], expirationSeconds: 600 },
    };
    const res = await t.call("POST", `/api/v1/namespaces/${ns}/serviceaccounts/sa/token`, {
      rawBody: Buffer.from(encodeObject(request)),
      contentType: PB,
    });
    expect(res.status).toBe(201);
    expect(res.json.kind).toBe("TokenRequest");
    expect(typeof res.json.status.token).toBe("string");
    expect(res.json.status.token.length).toBeGreaterThan(0);
    const review = await t.call("POST", "/apis/authentication.k8s.io/v1/tokenreviews", {
      body: { spec: { token: res.json.status.token } },
    });
    expect(review.json.status.user.username).toBe(`system:serviceaccount:${ns}:sa`);
  });

  it("pods/eviction accepts a protobuf Eviction", async () => {
    // kube-apiserver's ServiceAccount admission wants the namespace's default account to exist.
    await t.call("POST", `/api/v1/namespaces/${ns}/serviceaccounts`, {
      body: { metadata: { name: "default" } },
    });
    const created = await t.call("POST", `/api/v1/namespaces/${ns}/pods`, {
      body: { metadata: { name: "p" }, spec: { containers: [{ name: "c", image: "busybox" }] } },
    });
    expect(created.status).toBe(201);
    const eviction = {
      apiVersion: "policy/v1",
      kind: "Eviction",
      metadata: { name: "p", namespace: ns },
    };
    const res = await t.call("POST", `/api/v1/namespaces/${ns}/pods/p/eviction`, {
      rawBody: Buffer.from(encodeObject(eviction)),
      contentType: PB,
    });
    expect(res.status).toBe(201);
    expect(res.json.kind).toBe("Status");
    expect(res.json.status).toBe("Success");
  });

  it("a body that is neither JSON nor protobuf is refused with 400 and nothing evicted", async () => {
    const created = await t.call("POST", `/api/v1/namespaces/${ns}/pods`, {
      body: { metadata: { name: "q" }, spec: { containers: [{ name: "c", image: "busybox" }] } },
    });
    expect(created.status).toBe(201);
    const res = await t.call("POST", `/api/v1/namespaces/${ns}/pods/q/eviction`, {
      rawBody: Buffer.from("not a protobuf"),
      contentType: PB,
    });
    expect(res.status).toBe(400);
    expect(res.json.kind).toBe("Status");
    expect((await t.call("GET", `/api/v1/namespaces/${ns}/pods/q`)).status).toBe(200);
  });
});

describe("default/kubernetes", () => {
  it("is the apiserver's own Service, targeting the port it serves on", async () => {
    const svc = await t.call("GET", "/api/v1/namespaces/default/services/kubernetes");
    expect(svc.status).toBe(200);
    expect(svc.json.metadata.labels).toEqual({ component: "apiserver", provider: "kubernetes" });
    expect(svc.json.spec.type).toBe("ClusterIP");
    expect(svc.json.spec.sessionAffinity).toBe("None");
    expect(svc.json.spec.ports).toEqual([
      { name: "https", port: 443, protocol: "TCP", targetPort: Number(new URL(t.url).port) },
    ]);
    expect(svc.json.spec.clusterIPs).toEqual([svc.json.spec.clusterIP]);
  });
});
