/**
 * Who a request comes from, as the server reports it: SelfSubjectReview answers with the requester,
 * and a CertificateSigningRequest records the same identity, for the admin credentials and for a
 * token issued to a service account (the account's uid and the token's credential id).
 */
import { describe, expect, it } from "vitest";
import { eventually } from "./crd-fixtures.js";
import { CSR, useTableSuite } from "./table-read.js";

const s = useTableSuite("requester");
const CSRS = "/apis/certificates.k8s.io/v1/certificatesigningrequests";

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes.
type Json = any;

const as = (token: string) => ({ anonymous: true, headers: { authorization: `Bearer ${token}` } });

describe("requesting identity", () => {
  it("a service account token is the account, with its uid and the token's credential id", async () => {
    const sa = await s.t.call("POST", `/api/v1/namespaces/${s.ns}/serviceaccounts`, {
      body: { metadata: { name: "robot" } },
    });
    expect(sa.status, sa.text).toBe(201);
    const issued = await s.t.call("POST", `/api/v1/namespaces/${s.ns}/serviceaccounts/robot/token`, {
      body: { apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest", spec: {} },
    });
    expect(issued.status, issued.text).toBe(201);
    const token = issued.json.status.token as string;
    const review = await s.t.call("POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", {
      body: { apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" },
      ...as(token),
    });
    expect(review.status, review.text).toBe(201);
    const me: Json = review.json.status.userInfo;
    expect(me.username).toBe(`system:serviceaccount:${s.ns}:robot`);
    expect(me.uid).toBe(sa.json.metadata.uid);
    expect(me.groups).toEqual([
      "system:serviceaccounts",
      `system:serviceaccounts:${s.ns}`,
      "system:authenticated",
    ]);
    expect(Object.keys(me.extra)).toEqual(["authentication.kubernetes.io/credential-id"]);
    expect(me.extra["authentication.kubernetes.io/credential-id"]).toEqual([expect.stringMatching(/^JTI=/)]);

    // With RBAC allowing it, the account's CSR names it the same way, whatever it claims.
    const role = s.clusterName("/apis/rbac.authorization.k8s.io/v1/clusterroles", "csr-creator");
    s.deleteAfter(`/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/${role}`);
    const rules = [
      { apiGroups: ["certificates.k8s.io"], resources: ["certificatesigningrequests"], verbs: ["create"] },
    ];
    await s.t.call("POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles", {
      body: { metadata: { name: role }, rules },
    });
    const binding = await s.t.call("POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", {
      body: {
        metadata: { name: role },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: role },
        subjects: [{ kind: "ServiceAccount", name: "robot", namespace: s.ns }],
      },
    });
    expect(binding.status, binding.text).toBe(201);
    // kube-apiserver's authorizer learns of a new binding from its own watch a moment later (no
    // event tells when): ask as the account until it may create, as upstream's e2e tests do.
    const access = await eventually(
      () =>
        s.t.call("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", {
          body: {
            apiVersion: "authorization.k8s.io/v1",
            kind: "SelfSubjectAccessReview",
            spec: {
              resourceAttributes: {
                group: "certificates.k8s.io",
                resource: "certificatesigningrequests",
                verb: "create",
              },
            },
          },
          ...as(token),
        }),
      (r) => r.json?.status?.allowed === true,
    );
    expect(access.json?.status?.allowed, access.text).toBe(true);
    const name = s.clusterName(CSRS, "robot-csr");
    const created = await s.t.call("POST", CSRS, {
      body: {
        metadata: { name },
        spec: { request: CSR, signerName: "example.com/signer", usages: ["client auth"], username: "admin" },
      },
      ...as(token),
    });
    expect(created.status, created.text).toBe(201);
    const { username, uid, groups, extra } = created.json.spec;
    expect({ username, uid, groups, extra }).toEqual(me);
  });
});
