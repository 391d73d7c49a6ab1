/**
 * Server-side printing of networking, autoscaling, certificate and API-extension kinds: columns and
 * cells as kube-apiserver serves them in Tables. Cluster-scoped objects are deleted afterwards: the
 * real server is shared by the run.
 */
import { describe, expect, it } from "vitest";
import { uniqueName } from "../support/target.js";
import { openWatch } from "../support/watch-client.js";
import { CSR, columnNames, nowSeconds, putStatus, readTable, TABLE, useTableSuite } from "./table-read.js";

const s = useTableSuite("tables-api");
const { table, clusterName } = s;
const names = columnNames;

describe("Tables of networking kinds", () => {
  it("ingresses: class, three hosts, load-balancer address, ports; ingress classes: parameters", async () => {
    const ings = `/apis/networking.k8s.io/v1/namespaces/${s.ns}/ingresses`;
    const ing = await table(
      ings,
      {
        metadata: { name: "in1" },
        spec: {
          ingressClassName: "ic1",
          tls: [{ hosts: ["a.example.com"] }],
          rules: [
            { host: "a.example.com" },
            { host: "b.example.com" },
            {},
            { host: "c.example.com" },
            { host: "d.example.com" },
          ],
        },
      },
      { loadBalancer: { ingress: [{ ip: "1.2.3.4" }, { ip: "1.2.3.4" }] } },
    );
    expect(names(ing.cols)).toEqual(["Name", "Class", "Hosts", "Address", "Ports", "Age"]);
    const hosts = "a.example.com,b.example.com,c.example.com + 2 more...";
    expect(ing.cells).toEqual(["in1", "ic1", hosts, "1.2.3.4", "80, 443", "AGE"]);
    const bare = await table(ings, {
      metadata: { name: "in2" },
      spec: { defaultBackend: { service: { name: "s", port: { number: 80 } } } },
    });
    expect(bare.cells).toEqual(["in2", "<none>", "*", "", "80", "AGE"]);

    const classes = "/apis/networking.k8s.io/v1/ingressclasses";
    const withParams = await table(classes, {
      metadata: { name: clusterName(classes, "ic") },
      spec: {
        controller: "example.com/ic",
        parameters: { apiGroup: "k8s.example.com", kind: "IngressParameters", name: "ext" },
      },
    });
    expect(names(withParams.cols)).toEqual(["Name", "Controller", "Parameters", "Age"]);
    expect(withParams.cells.slice(1)).toEqual([
      "example.com/ic",
      "IngressParameters.k8s.example.com/ext",
      "AGE",
    ]);
    const core = await table(classes, {
      metadata: { name: clusterName(classes, "ic") },
      spec: {
        controller: "example.com/ic",
        parameters: { kind: "ConfigMap", name: "x", scope: "Namespace", namespace: s.ns },
      },
    });
    expect(core.cells.slice(1)).toEqual(["example.com/ic", "ConfigMap/x", "AGE"]);
    const none = await table(classes, {
      metadata: { name: clusterName(classes, "ic") },
      spec: { controller: "example.com/ic" },
    });
    expect(none.cells.slice(1)).toEqual(["example.com/ic", "<none>", "AGE"]);
  });

  it("service CIDRs and IP addresses (two columns, three cells)", async () => {
    const cidrs = "/apis/networking.k8s.io/v1/servicecidrs";
    const cidr = await table(cidrs, {
      metadata: { name: clusterName(cidrs, "cidr") },
      spec: { cidrs: ["10.250.0.0/24", "fd00:250::/120"] },
    });
    expect(names(cidr.cols)).toEqual(["Name", "CIDRs", "Age"]);
    expect(cidr.cells.slice(1)).toEqual(["10.250.0.0/24,fd00:250::/120", "AGE"]);
    const ips = "/apis/networking.k8s.io/v1/ipaddresses";
    const svc = await table(ips, {
      metadata: { name: "10.250.0.5" },
      spec: { parentRef: { group: "", resource: "services", namespace: s.ns, name: "s" } },
    });
    s.deleteAfter(`${ips}/10.250.0.5`);
    expect(svc.cols).toEqual([
      ["Name", "string", 0],
      ["ParentRef", "string", 0],
    ]);
    expect(svc.cells.slice(0, 2)).toEqual(["10.250.0.5", `services/${s.ns}/s`]);
    expect(svc.cells[2]).toMatch(/^\d+s$/);
    const gw = await table(ips, {
      metadata: { name: "10.250.0.6" },
      spec: { parentRef: { group: "gateway.example.com", resource: "gateways", name: "g" } },
    });
    s.deleteAfter(`${ips}/10.250.0.6`);
    expect(gw.cells.slice(0, 2)).toEqual(["10.250.0.6", "gateways.gateway.example.com/g"]);
  });
});

describe("Tables of autoscalers and certificate requests", () => {
  const hpaSpec = (extra: Record<string, unknown>) => ({
    scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "web" },
    maxReplicas: 5,
    ...extra,
  });

  it("horizontal pod autoscalers: target, the first two metrics (current/target), replica bounds", async () => {
    const hpas = `/apis/autoscaling/v2/namespaces/${s.ns}/horizontalpodautoscalers`;
    const metrics = [
      {
        type: "Resource",
        resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 80 } },
      },
      {
        type: "Resource",
        resource: { name: "memory", target: { type: "AverageValue", averageValue: "100Mi" } },
      },
      {
        type: "Pods",
        pods: { metric: { name: "qps" }, target: { type: "AverageValue", averageValue: "1k" } },
      },
    ];
    const current = { averageUtilization: 45, averageValue: "200m" };
    const h1 = await table(
      hpas,
      { metadata: { name: "h1" }, spec: hpaSpec({ metrics }) },
      {
        currentReplicas: 2,
        desiredReplicas: 2,
        currentMetrics: [{ type: "Resource", resource: { name: "cpu", current } }],
      },
    );
    expect(names(h1.cols)).toEqual(["Name", "Reference", "Targets", "MinPods", "MaxPods", "Replicas", "Age"]);
    const targets = "cpu: 45%/80%, memory: <unknown>/100Mi + 1 more...";
    expect(h1.cells).toEqual(["h1", "Deployment/web", targets, "1", 5, 2, "AGE"]);
    const h2 = await table(hpas, {
      metadata: { name: "h2" },
      spec: hpaSpec({
        minReplicas: 2,
        metrics: [
          { type: "External", external: { metric: { name: "q" }, target: { type: "Value", value: "10" } } },
          {
            type: "Object",
            object: {
              describedObject: { apiVersion: "v1", kind: "Service", name: "s" },
              metric: { name: "rps" },
              target: { type: "AverageValue", averageValue: "2" },
            },
          },
        ],
      }),
    });
    expect(h2.cells).toEqual(["h2", "Deployment/web", "<unknown>/10, <unknown>/2 (avg)", "2", 5, 0, "AGE"]);
    // Without metrics the autoscaler defaults to 80% CPU.
    const h3 = await table(hpas, { metadata: { name: "h3" }, spec: hpaSpec({ maxReplicas: 3 }) });
    expect(h3.cells).toEqual(["h3", "Deployment/web", "cpu: <unknown>/80%", "1", 3, 0, "AGE"]);
  });

  it("certificate signing requests: signer, requestor, requested duration, Pending", async () => {
    const csrs = "/apis/certificates.k8s.io/v1/certificatesigningrequests";
    const got = await table(csrs, {
      metadata: { name: s.clusterName(csrs, "csr") },
      spec: {
        request: CSR,
        signerName: "example.com/signer",
        usages: ["client auth"],
        expirationSeconds: 7200,
        // The server replaces what the client claims with the requester it authenticated.
        username: "someone-else",
        uid: "not-mine",
        groups: ["claimed"],
        extra: { claimed: ["yes"] },
      },
    });
    const review = await s.t.call("POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", {
      body: { apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" },
    });
    expect(review.status, review.text).toBe(201);
    const me = review.json.status.userInfo;
    const { username, uid, groups, extra } = got.object.spec;
    expect({ username, uid, groups, extra }).toEqual({
      username: me.username,
      uid: me.uid,
      groups: me.groups,
      extra: me.extra,
    });
    expect(names(got.cols)).toEqual([
      "Name",
      "Age",
      "SignerName",
      "Requestor",
      "RequestedDuration",
      "Condition",
    ]);
    expect(got.cells.slice(1)).toEqual(["AGE", "example.com/signer", me.username, "120m", "Pending"]);
    // An update keeps the requested spec (and its requester) and changes only the rest.
    const changed = {
      ...got.object,
      metadata: { ...got.object.metadata, labels: { changed: "yes" } },
      spec: { ...got.object.spec, username: "other", usages: ["server auth"] },
    };
    const put = await s.t.call("PUT", `${csrs}/${got.object.metadata.name}`, { body: changed });
    expect(put.status, put.text).toBe(200);
    expect(put.json.spec).toEqual(got.object.spec);
    expect(put.json.metadata.labels).toEqual({ changed: "yes" });
  });
});

describe("Tables of CRDs and API services", () => {
  it("custom resource definitions: scope, versions (storage first), created at, and wide names", async () => {
    const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    const group = `${uniqueName("tbl")}.kubesdk.example`;
    const version = (name: string, storage = false) => ({
      name,
      served: true,
      storage,
      schema: { openAPIV3Schema: { type: "object" } },
    });
    const name = `gizmos.${group}`;
    s.deleteAfter(`${crds}/${name}`);
    const w = await openWatch(s.t, `${crds}?watch=true&fieldSelector=metadata.name%3D${name}`);
    const created = await s.t.call("POST", crds, {
      body: {
        metadata: { name },
        spec: {
          group,
          scope: "Namespaced",
          names: { plural: "gizmos", singular: "gizmo", kind: "Gizmo", shortNames: ["gz", "gzm"] },
          versions: [version("v3"), version("v1", true), version("v2alpha1"), version("v10")],
        },
      },
    });
    expect(created.status, created.text).toBe(201);
    try {
      await w.until((e) =>
        (e.object?.status?.conditions ?? []).some(
          (c: { type: string; status: string }) => c.type === "Established" && c.status === "True",
        ),
      );
    } finally {
      await w.close();
    }
    const got = await readTable(s.t, `${crds}/${name}`);
    expect(got.cols).toEqual([
      ["Name", "string", 0],
      ["Scope", "string", 0],
      ["Versions", "string", 0],
      ["Created At", "date", 0],
      ["Group", "string", 1],
      ["Kind", "string", 1],
      ["ShortNames", "string", 1],
      ["Established", "boolean", 1],
    ]);
    const when = created.json.metadata.creationTimestamp;
    const versions = "v1(storage),v10,v2alpha1,v3";
    expect(got.cells).toEqual([name, "Namespaced", versions, when, group, "Gizmo", "gz,gzm", true]);
  });

  it("API services: Local (no service) and its availability", async () => {
    const services = "/apis/apiregistration.k8s.io/v1/apiservices";
    const group = `${uniqueName("agg")}.kubesdk.example`;
    const name = `v1.${group}`;
    const created = await s.t.call("POST", services, {
      body: {
        metadata: { name },
        spec: { group, version: "v1", groupPriorityMinimum: 100, versionPriority: 10 },
      },
    });
    expect(created.status, created.text).toBe(201);
    try {
      // What the real server's availability controller writes for a local service, written here too.
      await putStatus(s.t, `${services}/${name}`, {
        conditions: [
          {
            type: "Available",
            status: "True",
            reason: "Local",
            message: "Local APIServices are always available",
            lastTransitionTime: nowSeconds(),
          },
        ],
      });
      const got = await readTable(s.t, `${services}/${name}`);
      expect(names(got.cols)).toEqual(["Name", "Service", "Available", "Age"]);
      expect(got.cells).toEqual([name, "Local", "True", "AGE"]);
    } finally {
      // Removed at once: an API service for a group nobody serves can disturb other suites' discovery.
      await s.t.call("DELETE", `${services}/${name}`);
    }
  });
});

describe("Tables of storage version migrations and component statuses", () => {
  const formats = (json: { columnDefinitions: { name: string; format: string }[] }) =>
    json.columnDefinitions.map((c) => [c.name, c.format]);

  it("storage version migrations: resource.group and the outcome; Name without the name format", async () => {
    const migrations = "/apis/storagemigration.k8s.io/v1/storageversionmigrations";
    const name = clusterName(migrations, "svm");
    const got = await table(migrations, {
      metadata: { name },
      spec: { resource: { group: "apps", resource: "deployments" } },
    });
    expect(got.cols).toEqual([
      ["Name", "string", 0],
      ["Resource", "string", 0],
      ["Status", "string", 0],
    ]);
    expect(got.cells).toEqual([name, "deployments.apps", "Unknown"]);
    const res = await s.t.call("GET", `${migrations}/${name}`, { accept: TABLE });
    expect(formats(res.json)[0]).toEqual(["Name", ""]);
  });

  it("component statuses: status, message and error columns", async () => {
    const res = await s.t.call("GET", "/api/v1/componentstatuses", { accept: TABLE });
    expect(res.status, res.text).toBe(200);
    expect(formats(res.json)).toEqual([
      ["Name", "name"],
      ["Status", ""],
      ["Message", ""],
      ["Error", ""],
    ]);
  });
});
