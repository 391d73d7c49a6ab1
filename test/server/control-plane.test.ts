/**
 * What the control plane's components need from the API server, as a bare
 * kube-apiserver does it (the reference server runs with its in-process
 * controllers off here, so nothing but the server acts): pod binding,
 * namespace finalize, protobuf DeleteOptions, graceful pod deletion,
 * propagation-policy finalizers, Job selectors and Service allocations.
 */
import { encodeObject } from "@kubesdk/models";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

const PB = "application/vnd.kubernetes.protobuf";
let t: TestTarget;
let ns: string;

beforeAll(async () => {
  t = await startTarget({ controllers: false });
  ns = uniqueName("cp");
  expect((await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } })).status).toBe(201);
  // A real server's ServiceAccount admission wants the account kube-controller-manager would make.
  await t.call("POST", `/api/v1/namespaces/${ns}/serviceaccounts`, {
    body: { metadata: { name: "default" } },
  });
});
afterAll(() => t.close());

const pods = () => `/api/v1/namespaces/${ns}/pods`;
const pod = (name: string, nodeName?: string) => ({
  metadata: { name, labels: { app: "cp" } },
  spec: {
    containers: [{ name: "c", image: "registry.k8s.io/pause:3.10" }],
    ...(nodeName ? { nodeName } : {}),
  },
});

async function createPod(name: string, nodeName?: string) {
  const res = await t.call("POST", pods(), { body: pod(name, nodeName) });
  expect(res.status).toBe(201);
  return res.json;
}

/** The events of a watch from `rv` that ends after one second. */
async function eventsSince(path: string, rv: string) {
  const res = await t.call("GET", `${path}?watch=true&resourceVersion=${rv}&timeoutSeconds=1`);
  return res.text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as { type: string; object: { metadata: Record<string, unknown> } });
}

describe("pods/binding", () => {
  it("assigns a pod to a node once, with the PodScheduled condition", async () => {
    await createPod("bind-me");
    const bound = await t.call("POST", `${pods()}/bind-me/binding`, {
      body: {
        apiVersion: "v1",
        kind: "Binding",
        metadata: { name: "bind-me" },
        target: { kind: "Node", name: "node-a" },
      },
    });
    expect(bound.status).toBe(201);
    expect(bound.json).toMatchObject({ kind: "Status", status: "Success", code: 201 });
    const got = (await t.call("GET", `${pods()}/bind-me`)).json;
    expect(got.spec.nodeName).toBe("node-a");
    expect(got.status.conditions).toEqual([
      expect.objectContaining({ type: "PodScheduled", status: "True", lastProbeTime: null }),
    ]);
    const again = await t.call("POST", `${pods()}/bind-me/binding`, {
      body: { apiVersion: "v1", kind: "Binding", metadata: { name: "bind-me" }, target: { name: "node-b" } },
    });
    expect(again.status).toBe(409);
    expect(again.json.message).toContain('is already assigned to node "node-a"');
  });

  it("takes a protobuf Binding, as the scheduler sends it", async () => {
    await createPod("bind-pb");
    const body = encodeObject({
      apiVersion: "v1",
      kind: "Binding",
      metadata: { name: "bind-pb", namespace: ns },
      target: { kind: "Node", name: "node-pb" },
    });
    const res = await t.call("POST", `${pods()}/bind-pb/binding`, {
      rawBody: Buffer.from(body),
      contentType: PB,
    });
    expect(res.status).toBe(201);
    expect((await t.call("GET", `${pods()}/bind-pb`)).json.spec.nodeName).toBe("node-pb");
  });
});

describe("DeleteOptions in protobuf", () => {
  it("deletes one object and a collection with a protobuf body", async () => {
    const cms = `/api/v1/namespaces/${ns}/configmaps`;
    for (const name of ["pb-1", "pb-2", "pb-3"])
      await t.call("POST", cms, { body: { metadata: { name, labels: { pb: "yes" } } } });
    const one = encodeObject({ apiVersion: "v1", kind: "DeleteOptions", propagationPolicy: "Background" });
    const del = await t.call("DELETE", `${cms}/pb-1`, { rawBody: Buffer.from(one), contentType: PB });
    expect(del.status).toBe(200);
    const all = encodeObject({ apiVersion: "v1", kind: "DeleteOptions", gracePeriodSeconds: 0 });
    const coll = await t.call("DELETE", `${cms}?labelSelector=pb%3Dyes`, {
      rawBody: Buffer.from(all),
      contentType: PB,
    });
    expect(coll.status).toBe(200);
    expect((await t.call("GET", `${cms}?labelSelector=pb%3Dyes`)).json.items).toEqual([]);
  });

  it("takes DeleteOptions registered in a named group", async () => {
    const deps = `/apis/apps/v1/namespaces/${ns}/deployments`;
    const spec = { selector: { matchLabels: { app: "pb" } }, template: pod("x") };
    spec.template.metadata = { labels: { app: "pb" } } as never;
    expect((await t.call("POST", deps, { body: { metadata: { name: "pb-dep" }, spec } })).status).toBe(201);
    const opts = encodeObject({
      apiVersion: "apps/v1",
      kind: "DeleteOptions",
      propagationPolicy: "Background",
    });
    const del = await t.call("DELETE", `${deps}/pb-dep`, { rawBody: Buffer.from(opts), contentType: PB });
    expect(del.status).toBe(200);
    expect((await t.call("GET", `${deps}/pb-dep`)).status).toBe(404);
  });
});

describe("graceful pod deletion", () => {
  it("leaves a pod on a node Terminating for its grace period; a grace-0 delete removes it", async () => {
    await createPod("graceful", "node-a");
    const del = await t.call("DELETE", `${pods()}/graceful`);
    expect(del.status).toBe(200);
    expect(del.json.metadata.deletionGracePeriodSeconds).toBe(30);
    expect(del.json.metadata.deletionTimestamp).toBeTruthy();
    const still = await t.call("GET", `${pods()}/graceful`);
    expect(still.json.metadata.deletionGracePeriodSeconds).toBe(30);
    // A longer grace period does not extend it.
    const longer = await t.call("DELETE", `${pods()}/graceful?gracePeriodSeconds=60`);
    expect(longer.json.metadata.deletionGracePeriodSeconds).toBe(30);
    const now = await t.call("DELETE", `${pods()}/graceful?gracePeriodSeconds=0`);
    expect(now.status).toBe(200);
    expect((await t.call("GET", `${pods()}/graceful`)).status).toBe(404);
  });

  it("shows watchers MODIFIED (marked) then DELETED even for a pod on no node", async () => {
    const created = await createPod("unbound");
    await t.call("DELETE", `${pods()}/unbound`);
    const events = (await eventsSince(pods(), created.metadata.resourceVersion)).filter(
      (e) => e.object.metadata.name === "unbound",
    );
    expect(events.map((e) => e.type)).toEqual(["MODIFIED", "DELETED"]);
    expect(events[0]?.object.metadata.deletionGracePeriodSeconds).toBe(0);
    expect(events[0]?.object.metadata.deletionTimestamp).toBeTruthy();
  });
});

describe("propagation policies", () => {
  const cms = () => `/api/v1/namespaces/${ns}/configmaps`;

  it.each([
    ["Foreground", "foregroundDeletion"],
    ["Orphan", "orphan"],
  ])("%s leaves the owner marked with the %s finalizer", async (policy, finalizer) => {
    const name = `owner-${policy.toLowerCase()}`;
    await t.call("POST", cms(), { body: { metadata: { name } } });
    const del = await t.call("DELETE", `${cms()}/${name}`, { body: { propagationPolicy: policy } });
    expect(del.status).toBe(200);
    expect(del.json.metadata.finalizers).toEqual([finalizer]);
    expect(del.json.metadata.deletionTimestamp).toBeTruthy();
    expect((await t.call("GET", `${cms()}/${name}`)).json.metadata.finalizers).toEqual([finalizer]);
    const released = await t.call("PATCH", `${cms()}/${name}`, {
      body: { metadata: { finalizers: null } },
      contentType: "application/merge-patch+json",
    });
    expect(released.status).toBe(200);
    expect((await t.call("GET", `${cms()}/${name}`)).status).toBe(404);
  });

  it("orphans a batch/v1 Job's pods unless told otherwise; Background deletes at once", async () => {
    const jobs = `/apis/batch/v1/namespaces/${ns}/jobs`;
    const job = (name: string) => ({
      metadata: { name },
      spec: {
        template: { spec: { restartPolicy: "Never", containers: [{ name: "c", image: "busybox:1.36" }] } },
      },
    });
    await t.call("POST", jobs, { body: job("job-default") });
    const del = await t.call("DELETE", `${jobs}/job-default`);
    expect(del.json.metadata.finalizers).toEqual(["orphan"]);
    await t.call("POST", jobs, { body: job("job-bg") });
    await t.call("DELETE", `${jobs}/job-bg?propagationPolicy=Background`);
    expect((await t.call("GET", `${jobs}/job-bg`)).status).toBe(404);
  });
});

describe("namespace finalize", () => {
  it("keeps a deleted namespace Terminating until finalize empties spec.finalizers", async () => {
    const name = uniqueName("fin");
    await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name } } });
    const del = await t.call("DELETE", `/api/v1/namespaces/${name}`);
    expect(del.json.status.phase).toBe("Terminating");
    expect(del.json.spec.finalizers).toEqual(["kubernetes"]);
    const ns1 = (await t.call("GET", `/api/v1/namespaces/${name}`)).json;
    const fin = await t.call("PUT", `/api/v1/namespaces/${name}/finalize`, {
      body: { ...ns1, spec: { finalizers: [] } },
    });
    expect(fin.status).toBe(200);
    expect(fin.json.kind).toBe("Namespace");
    expect(fin.json.spec.finalizers ?? []).toEqual([]);
    // The update that leaves no finalizer completes the deletion.
    expect((await t.call("GET", `/api/v1/namespaces/${name}`)).status).toBe(404);
  });

  it("keeps a Terminating namespace when its status is written", async () => {
    const name = uniqueName("fin");
    await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name } } });
    await t.call("DELETE", `/api/v1/namespaces/${name}`);
    const ns1 = (await t.call("GET", `/api/v1/namespaces/${name}`)).json;
    const conditions = [
      { type: "NamespaceContentRemaining", status: "True", reason: "SomeResourcesRemain", message: "x" },
    ];
    const put = await t.call("PUT", `/api/v1/namespaces/${name}/status`, {
      body: { ...ns1, status: { ...ns1.status, conditions } },
    });
    expect(put.status).toBe(200);
    const got = await t.call("GET", `/api/v1/namespaces/${name}`);
    expect(got.status).toBe(200);
    expect(got.json.status.conditions).toEqual([
      expect.objectContaining({ type: "NamespaceContentRemaining" }),
    ]);
  });
});

describe("defaults the server allocates", () => {
  it("gives a Job a selector on its uid and labels its pod template", async () => {
    const jobs = `/apis/batch/v1/namespaces/${ns}/jobs`;
    const res = await t.call("POST", jobs, {
      body: {
        metadata: { name: "selector" },
        spec: {
          template: {
            metadata: { labels: { app: "j" } },
            spec: { restartPolicy: "Never", containers: [{ name: "c", image: "busybox:1.36" }] },
          },
        },
      },
    });
    expect(res.status).toBe(201);
    const uid = res.json.metadata.uid;
    expect(res.json.spec.selector).toEqual({ matchLabels: { "batch.kubernetes.io/controller-uid": uid } });
    const labels = {
      app: "j",
      "batch.kubernetes.io/controller-uid": uid,
      "batch.kubernetes.io/job-name": "selector",
      "controller-uid": uid,
      "job-name": "selector",
    };
    expect(res.json.spec.template.metadata.labels).toEqual(labels);
    expect(res.json.metadata.labels).toEqual(labels);
    await t.call("DELETE", `${jobs}/selector?propagationPolicy=Background`);
  });

  it("allocates a Service's cluster IP, IP families and node ports, and keeps them on update", async () => {
    const svcs = `/api/v1/namespaces/${ns}/services`;
    const ports = [{ port: 80 }];
    const ip = await t.call("POST", svcs, {
      body: { metadata: { name: "ip" }, spec: { selector: { a: "b" }, ports } },
    });
    expect(ip.json.spec.clusterIP).toMatch(/^10\.\d+\.\d+\.\d+$/);
    expect(ip.json.spec.clusterIPs).toEqual([ip.json.spec.clusterIP]);
    expect(ip.json.spec.ipFamilies).toEqual(["IPv4"]);
    expect(ip.json.spec.ipFamilyPolicy).toBe("SingleStack");
    const { clusterIP: _c, clusterIPs: _cs, ...spec } = ip.json.spec;
    const put = await t.call("PUT", `${svcs}/ip`, { body: { ...ip.json, spec } });
    expect(put.status).toBe(200);
    expect(put.json.spec.clusterIP).toBe(ip.json.spec.clusterIP);
    const headless = await t.call("POST", svcs, {
      body: { metadata: { name: "headless" }, spec: { clusterIP: "None", ports } },
    });
    expect(headless.json.spec.clusterIPs).toEqual(["None"]);
    // Headless without a selector may carry any family: upstream asks for both.
    expect(headless.json.spec.ipFamilies).toEqual(["IPv4", "IPv6"]);
    expect(headless.json.spec.ipFamilyPolicy).toBe("RequireDualStack");
    const selecting = await t.call("POST", svcs, {
      body: { metadata: { name: "headless-sel" }, spec: { clusterIP: "None", selector: { a: "b" }, ports } },
    });
    expect(selecting.json.spec.ipFamilies).toEqual(["IPv4"]);
    expect(selecting.json.spec.ipFamilyPolicy).toBe("SingleStack");
    const np = await t.call("POST", svcs, {
      body: { metadata: { name: "np" }, spec: { type: "NodePort", ports } },
    });
    expect(np.json.spec.ports[0].nodePort).toBeGreaterThanOrEqual(30000);
    expect(np.json.spec.ports[0].nodePort).toBeLessThanOrEqual(32767);
  });

  // Upstream's StatefulSet conformance tests send a headless Service whose targetPort is client-go's zero value.
  it("defaults a zero or empty Service targetPort to the port", async () => {
    const svcs = `/api/v1/namespaces/${ns}/services`;
    const ports = [
      { name: "zero", port: 80, targetPort: 0 },
      { name: "empty", port: 81, targetPort: "" },
      { name: "named", port: 82, targetPort: "http" },
    ];
    const res = await t.call("POST", svcs, {
      body: { metadata: { name: "target-ports" }, spec: { clusterIP: "None", selector: { a: "b" }, ports } },
    });
    expect(res.status).toBe(201);
    expect(res.json.spec.ports.map((p: { targetPort: unknown }) => p.targetPort)).toEqual([80, 81, "http"]);
  });
});

describe("what the components read at start", () => {
  it("has the kube-system ConfigMaps kube-apiserver writes", async () => {
    const auth = await t.call(
      "GET",
      "/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication",
    );
    expect(auth.status).toBe(200);
    expect(auth.json.data["client-ca-file"]).toContain("BEGIN CERTIFICATE");
    const tracking = await t.call(
      "GET",
      "/api/v1/namespaces/kube-system/configmaps/kube-apiserver-legacy-service-account-token-tracking",
    );
    expect(tracking.status).toBe(200);
    expect(tracking.json.data.since).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("lists ClusterTrustBundles by spec.signerName", async () => {
    const res = await t.call(
      "GET",
      "/apis/certificates.k8s.io/v1/clustertrustbundles?fieldSelector=spec.signerName%3Dexample.com%2Fsigner",
    );
    expect(res.status).toBe(200);
    expect(res.json.items).toEqual([]);
  });
});

describe("writes compared as decoded objects", () => {
  it("re-applying ports without protocol keeps one port", async () => {
    const svcs = `/api/v1/namespaces/${ns}/services`;
    const applied = {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "applied" },
      spec: { selector: { app: "a" }, ports: [{ name: "http", port: 80 }] },
    };
    for (let i = 0; i < 2; i++) {
      const res = await t.call("PATCH", `${svcs}/applied?fieldManager=me`, {
        rawBody: JSON.stringify(applied),
        contentType: "application/apply-patch+yaml",
      });
      expect(res.status, res.text).toBeLessThan(300);
      expect(res.json.spec.ports).toHaveLength(1);
    }
    const got = (await t.call("GET", `${svcs}/applied`)).json;
    const mine = got.metadata.managedFields.find((m: { manager: string }) => m.manager === "me");
    expect(Object.keys(mine.fieldsV1["f:spec"]["f:ports"])).toContain('k:{"port":80,"protocol":"TCP"}');
  });

  it("drops metadata lists and maps a write empties", async () => {
    const cms = `/api/v1/namespaces/${ns}/configmaps`;
    await t.call("POST", cms, { body: { metadata: { name: "emptied", labels: { a: "b" } } } });
    const res = await t.call("PATCH", `${cms}/emptied`, {
      body: { metadata: { labels: { a: null }, ownerReferences: [], annotations: {} } },
      contentType: "application/strategic-merge-patch+json",
    });
    expect(res.status).toBe(200);
    expect(res.json.metadata.labels).toBeUndefined();
    expect(res.json.metadata.ownerReferences).toBeUndefined();
    expect(res.json.metadata.annotations).toBeUndefined();
  });

  it("a PUT that only reorders keys keeps the resourceVersion", async () => {
    const cms = `/api/v1/namespaces/${ns}/configmaps`;
    const created = (
      await t.call("POST", cms, { body: { metadata: { name: "order" }, data: { a: "1", b: "2" } } })
    ).json;
    const reordered = {
      data: { b: "2", a: "1" },
      metadata: created.metadata,
      kind: "ConfigMap",
      apiVersion: "v1",
    };
    const put = await t.call("PUT", `${cms}/order`, { body: reordered });
    expect(put.status).toBe(200);
    expect(put.json.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
  });
});
