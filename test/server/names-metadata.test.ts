/**
 * Issue 31: names per kind and metadata as kube-apiserver 1.37 validates them. A `null` metadata field
 * is dropped as Go's decoding drops it (and never breaks a later label-selected read), RBAC kinds take
 * any path-segment name, Services take DNS-1123 labels only, ClusterTrustBundles are named after
 * their signer. The seeded, broader comparison is `pnpm diff:server` (scripts/differential/).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import { openWatch } from "../support/watch-client.js";

let t: TestTarget;
const ns = uniqueName("names-meta");
const cms = `/api/v1/namespaces/${ns}/configmaps`;

beforeAll(async () => {
  t = await startTarget();
  expect((await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } })).status).toBe(201);
});
afterAll(async () => {
  await t?.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: Status causes are arbitrary JSON.
const causes = (json: any) => json.details.causes;

describe("null metadata fields", () => {
  it("a ConfigMap created with labels: null is stored without labels, and selector lists still answer", async () => {
    const created = await t.call("POST", cms, { body: { metadata: { name: "labels-null", labels: null } } });
    expect(created.status).toBe(201);
    expect(created.json.metadata.labels).toBeUndefined();
    const stored = await t.call("GET", `${cms}/labels-null`);
    expect(stored.json.metadata.labels).toBeUndefined();
    for (const path of [`${cms}?labelSelector=app%3Dx`, `/api/v1/configmaps?labelSelector=app`]) {
      const list = await t.call("GET", path);
      expect([path, list.status]).toEqual([path, 200]);
    }
  });

  it("a create with labels: null answers 201 while a label-selected watch is open", async () => {
    const watch = await openWatch(t, `${cms}?watch=1&labelSelector=app%3Dwatched`);
    try {
      expect(watch.status).toBe(200);
      const created = await t.call("POST", cms, {
        body: { metadata: { name: "labels-null-watched", labels: null } },
      });
      expect(created.status).toBe(201);
      const labelled = await t.call("POST", cms, {
        body: { metadata: { name: "labelled-watched", labels: { app: "watched" } } },
      });
      expect(labelled.status).toBe(201);
      const seen = await watch.until((e) => e.object?.metadata?.name === "labelled-watched");
      expect(seen.map((e) => e.object.metadata.name)).toEqual(["labelled-watched"]);
    } finally {
      await watch.close();
    }
  });

  it.each(["annotations", "finalizers", "ownerReferences", "managedFields"])(
    "%s: null is dropped on create",
    async (field) => {
      const name = `null-${field.toLowerCase()}`;
      const created = await t.call("POST", cms, { body: { metadata: { name, [field]: null } } });
      expect(created.status).toBe(201);
      const stored = (await t.call("GET", `${cms}/${name}`)).json.metadata;
      expect(stored[field] ?? "absent").not.toBeNull();
      if (field !== "managedFields") expect(stored[field]).toBeUndefined();
    },
  );

  it("a label value of null is stored as the empty string", async () => {
    const created = await t.call("POST", cms, {
      body: { metadata: { name: "label-value-null", labels: { a: null } } },
    });
    expect([created.status, created.json.metadata.labels]).toEqual([201, { a: "" }]);
  });
});

describe("RBAC names are path segments", () => {
  it.each(["system:controller:x", "a:b", "Upper"])("a ClusterRole may be called %s", async (name) => {
    const created = await t.call("POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles?dryRun=All", {
      body: { metadata: { name }, rules: [] },
    });
    expect([created.status, created.json.metadata?.name]).toEqual([201, name]);
  });

  it("a Role name with a slash is refused with the path-segment message", async () => {
    const res = await t.call("POST", `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles?dryRun=All`, {
      body: { metadata: { name: "a/b" }, rules: [] },
    });
    expect([res.status, causes(res.json)]).toEqual([
      422,
      [
        {
          reason: "FieldValueInvalid",
          message: "Invalid value: \"a/b\": may not contain '/'",
          field: "metadata.name",
        },
      ],
    ]);
  });
});

describe("Service names are DNS-1123 labels", () => {
  it("refuses a dotted name", async () => {
    const res = await t.call("POST", `/api/v1/namespaces/${ns}/services?dryRun=All`, {
      body: { metadata: { name: "a.b" }, spec: { clusterIP: "None", ports: [{ port: 80 }] } },
    });
    expect([res.status, res.json.reason, causes(res.json)]).toEqual([
      422,
      "Invalid",
      [
        {
          reason: "FieldValueInvalid",
          message: 'Invalid value: "a.b": must not contain dots',
          field: "metadata.name",
        },
      ],
    ]);
  });

  it("accepts a name that starts with a digit", async () => {
    const res = await t.call("POST", `/api/v1/namespaces/${ns}/services?dryRun=All`, {
      body: { metadata: { name: "1abc" }, spec: { clusterIP: "None", ports: [{ port: 80 }] } },
    });
    expect(res.status).toBe(201);
  });
});

describe("ClusterTrustBundle names follow the signer", () => {
  const bundles = "/apis/certificates.k8s.io/v1/clustertrustbundles?dryRun=All";
  const create = (name: string, signerName?: string) =>
    t.call("POST", bundles, {
      body: { metadata: { name }, spec: { trustBundle: t.ca, ...(signerName ? { signerName } : {}) } },
    });

  it("accepts <signer with : for />:<name>, as kube-controller-manager's publisher names them", async () => {
    const res = await create("test.test:signer-one:0", "test.test/signer-one");
    expect([res.status, res.json.metadata?.name]).toEqual([201, "test.test:signer-one:0"]);
  });

  it("refuses a name without the signer prefix", async () => {
    const res = await create("other", "test.test/signer-one");
    expect([res.status, causes(res.json)]).toEqual([
      422,
      [
        {
          reason: "FieldValueInvalid",
          message:
            'Invalid value: "other": ClusterTrustBundle for signerName test.test/signer-one must be named with prefix test.test:signer-one:',
          field: "metadata.name",
        },
      ],
    ]);
  });

  it("refuses a colon in the name of a bundle without signer", async () => {
    const res = await create("a:b");
    expect([res.status, causes(res.json)]).toEqual([
      422,
      [
        {
          reason: "FieldValueInvalid",
          message:
            'Invalid value: "a:b": ClusterTrustBundle without signer name must not have ":" in its name',
          field: "metadata.name",
        },
      ],
    ]);
  });
});
