/**
 * Server-side printing of networking, autoscaling, certificate, API-extension, admission,
 * flow-control and DRA kinds: columns and cells as kube-apiserver serves them in Tables. Everything
 * created matches no real request (admission rules name a group nobody serves), and cluster-scoped
 * objects are deleted afterwards: the real server is shared by the run.
 */
import { describe, expect, it } from "vitest";
import { uniqueName } from "../support/target.js";
import { openWatch } from "../support/watch-client.js";
import { columnNames, nowSeconds, putStatus, readTable, useTableSuite } from "./table-read.js";

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
      },
    });
    expect(names(got.cols)).toEqual([
      "Name",
      "Age",
      "SignerName",
      "Requestor",
      "RequestedDuration",
      "Condition",
    ]);
    expect(got.cells.slice(1)).toEqual([
      "AGE",
      "example.com/signer",
      got.object.spec.username ?? "", // the requester (docs/divergences.md D37)
      "120m",
      "Pending",
    ]);
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

/** Admission rules that match no request: a group nobody serves. */
const matchNothing = {
  resourceRules: [
    {
      apiGroups: ["nothing.kubesdk.example"],
      apiVersions: ["v1"],
      operations: ["CREATE"],
      resources: ["nothings"],
    },
  ],
};

describe("Tables of admission configuration", () => {
  it("webhook configurations: the number of webhooks", async () => {
    const admission = "/apis/admissionregistration.k8s.io/v1";
    const vwc = await table(`${admission}/validatingwebhookconfigurations`, {
      metadata: { name: clusterName(`${admission}/validatingwebhookconfigurations`, "vwc") },
      webhooks: [
        {
          name: "a.kubesdk.example",
          clientConfig: { url: "https://webhook.kubesdk.example/validate" },
          rules: matchNothing.resourceRules,
          failurePolicy: "Ignore",
          sideEffects: "None",
          admissionReviewVersions: ["v1"],
        },
      ],
    });
    expect(vwc.cols).toEqual([
      ["Name", "string", 0],
      ["Webhooks", "integer", 0],
      ["Age", "string", 0],
    ]);
    expect(vwc.cells.slice(1)).toEqual([1, "AGE"]);
    const mwc = await table(`${admission}/mutatingwebhookconfigurations`, {
      metadata: { name: clusterName(`${admission}/mutatingwebhookconfigurations`, "mwc") },
    });
    expect(mwc.cols).toEqual(vwc.cols);
    expect(mwc.cells.slice(1)).toEqual([0, "AGE"]);
  });

  it("admission policies and bindings: counts, param kind, param reference", async () => {
    const admission = "/apis/admissionregistration.k8s.io/v1";
    const vaps = `${admission}/validatingadmissionpolicies`;
    const vapName = clusterName(vaps, "vap");
    const vap = await table(vaps, {
      metadata: { name: vapName },
      spec: {
        paramKind: { apiVersion: "v1", kind: "ConfigMap" },
        matchConstraints: matchNothing,
        validations: [{ expression: "true" }, { expression: "1 == 1" }],
      },
    });
    expect(vap.cols).toEqual([
      ["Name", "string", 0],
      ["Validations", "integer", 0],
      ["ParamKind", "string", 0],
      ["Age", "string", 0],
    ]);
    expect(vap.cells.slice(1)).toEqual([2, "v1/ConfigMap", "AGE"]);
    const plain = await table(vaps, {
      metadata: { name: clusterName(vaps, "vap") },
      spec: { matchConstraints: matchNothing, validations: [{ expression: "true" }] },
    });
    expect(plain.cells.slice(1)).toEqual([1, "<unset>", "AGE"]);

    const bindings = `${admission}/validatingadmissionpolicybindings`;
    const bind = (paramRef?: Record<string, unknown>) =>
      table(bindings, {
        metadata: { name: clusterName(bindings, "vapb") },
        spec: { policyName: vapName, validationActions: ["Deny"], ...(paramRef ? { paramRef } : {}) },
      });
    const named = await bind({ name: "cm", namespace: s.ns, parameterNotFoundAction: "Allow" });
    expect(names(named.cols)).toEqual(["Name", "PolicyName", "ParamRef", "Age"]);
    expect(named.cells.slice(1)).toEqual([vapName, `${s.ns}/cm`, "AGE"]);
    expect((await bind({ name: "cm", parameterNotFoundAction: "Allow" })).cells[2]).toBe("*/cm");
    expect((await bind()).cells[2]).toBe("<unset>");
    const selected = await bind({
      selector: {
        matchLabels: { z: "1", a: "b" },
        matchExpressions: [
          { key: "k", operator: "In", values: ["x", "y"] },
          { key: "e", operator: "Exists" },
        ],
      },
      parameterNotFoundAction: "Allow",
    });
    expect(selected.cells[2]).toBe(
      "&LabelSelector{MatchLabels:map[string]string{a: b,z: 1,},MatchExpressions:[]LabelSelectorRequirement{" +
        "LabelSelectorRequirement{Key:k,Operator:In,Values:[x y],},LabelSelectorRequirement{Key:e,Operator:Exists,Values:[],},},}",
    );
  });

  it("mutating admission policies and bindings", async () => {
    const admission = "/apis/admissionregistration.k8s.io/v1";
    const maps = `${admission}/mutatingadmissionpolicies`;
    const mapName = clusterName(maps, "map");
    const policy = await table(maps, {
      metadata: { name: mapName },
      spec: {
        paramKind: { apiVersion: "v1", kind: "ConfigMap" },
        matchConstraints: matchNothing,
        reinvocationPolicy: "Never",
        mutations: [{ patchType: "ApplyConfiguration", applyConfiguration: { expression: "Object{}" } }],
      },
    });
    expect(policy.cols.map((c) => c.slice(0, 2))).toEqual([
      ["Name", "string"],
      ["Mutations", "integer"],
      ["ParamKind", "string"],
      ["Age", "string"],
    ]);
    expect(policy.cells.slice(1)).toEqual([1, "v1/ConfigMap", "AGE"]);
    const bindings = `${admission}/mutatingadmissionpolicybindings`;
    const bound = await table(bindings, {
      metadata: { name: clusterName(bindings, "mapb") },
      spec: { policyName: mapName, paramRef: { name: "cm", parameterNotFoundAction: "Allow" } },
    });
    expect(bound.cells.slice(1)).toEqual([mapName, "*/cm", "AGE"]);
  });
});

describe("Tables of flow control and DRA kinds", () => {
  it("priority levels: shares and queuing (defaulted), or <none>", async () => {
    const levels = "/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations";
    const reject = await table(levels, {
      metadata: { name: clusterName(levels, "pl") },
      spec: { type: "Limited", limited: { nominalConcurrencyShares: 7, limitResponse: { type: "Reject" } } },
    });
    expect(names(reject.cols)).toEqual([
      "Name",
      "Type",
      "NominalConcurrencyShares",
      "Queues",
      "HandSize",
      "QueueLengthLimit",
      "Age",
    ]);
    expect(reject.cells.slice(1)).toEqual(["Limited", 7, "<none>", "<none>", "<none>", "AGE"]);
    const queued = await table(levels, {
      metadata: { name: clusterName(levels, "pl") },
      spec: { type: "Limited", limited: { limitResponse: { type: "Queue", queuing: {} } } },
    });
    expect(queued.cells.slice(1)).toEqual(["Limited", 30, 64, 8, 50, "AGE"]);
  });

  it("flow schemas: level, precedence, distinguisher, and whether the level is missing", async () => {
    const levels = "/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations";
    const level = clusterName(levels, "pl");
    const made = await s.t.call("POST", levels, {
      body: {
        metadata: { name: level },
        spec: { type: "Limited", limited: { limitResponse: { type: "Reject" } } },
      },
    });
    expect(made.status, made.text).toBe(201);
    const schemas = "/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas";
    // The real server's configuration controller writes the same Dangling status (only its status shows).
    const dangling = (status: string) => ({
      conditions: [
        {
          type: "Dangling",
          status,
          reason: "Test",
          message: "set by the test",
          lastTransitionTime: nowSeconds(),
        },
      ],
    });
    const found = await table(
      schemas,
      {
        metadata: { name: clusterName(schemas, "fs") },
        spec: {
          priorityLevelConfiguration: { name: level },
          matchingPrecedence: 5000,
          distinguisherMethod: { type: "ByNamespace" },
        },
      },
      dangling("False"),
    );
    expect(names(found.cols)).toEqual([
      "Name",
      "PriorityLevel",
      "MatchingPrecedence",
      "DistinguisherMethod",
      "Age",
      "MissingPL",
    ]);
    expect(found.cells.slice(1)).toEqual([level, 5000, "ByNamespace", "AGE", "False"]);
    const missing = await table(
      schemas,
      {
        metadata: { name: clusterName(schemas, "fs") },
        spec: { priorityLevelConfiguration: { name: `${level}-missing` } },
      },
      dangling("True"),
    );
    expect(missing.cells.slice(1)).toEqual([`${level}-missing`, 1000, "<none>", "AGE", "True"]);
  });

  it("device classes, resource claims and templates, resource slices, device taint rules", async () => {
    const dra = "/apis/resource.k8s.io/v1";
    const className = clusterName(`${dra}/deviceclasses`, "dc");
    const dc = await table(`${dra}/deviceclasses`, { metadata: { name: className }, spec: {} });
    expect(names(dc.cols)).toEqual(["Name", "Age"]);
    expect(dc.cells).toEqual([className, "AGE"]);
    const request = { devices: { requests: [{ name: "r", exactly: { deviceClassName: className } }] } };
    const claim = await table(`${dra}/namespaces/${s.ns}/resourceclaims`, {
      metadata: { name: "rc" },
      spec: request,
    });
    expect(names(claim.cols)).toEqual(["Name", "State", "Age"]);
    expect(claim.cells).toEqual(["rc", "pending", "AGE"]);
    const template = await table(`${dra}/namespaces/${s.ns}/resourceclaimtemplates`, {
      metadata: { name: "rct" },
      spec: { spec: request },
    });
    expect(template.cells).toEqual(["rct", "AGE"]);
    const slices = `${dra}/resourceslices`;
    const slice = await table(slices, {
      metadata: { name: clusterName(slices, "rs") },
      spec: {
        driver: "dra.kubesdk.example",
        nodeName: "n1",
        pool: { name: "pool1", generation: 1, resourceSliceCount: 1 },
        devices: [],
      },
    });
    expect(names(slice.cols)).toEqual(["Name", "Node", "Driver", "Pool", "Age"]);
    expect(slice.cells.slice(1)).toEqual(["n1", "dra.kubesdk.example", "pool1", "AGE"]);
    const rules = `${dra}/devicetaintrules`;
    const rule = await table(rules, {
      metadata: { name: clusterName(rules, "dtr") },
      spec: { taint: { key: "k", value: "v", effect: "NoSchedule", timeAdded: nowSeconds() } },
    });
    expect(names(rule.cols)).toEqual(["Name", "Key", "Value", "Effect", "TimeAdded", "Age"]);
    expect(rule.cells.slice(1)).toEqual(["k", "v", "NoSchedule", "AGE", "AGE"]);
  });
});

/** A PKCS#10 request for CN=alice (an EC P-256 key made for this test). */
const CSR =
  "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIS01ISUNBUUF3RURFT01Bd0dBMVVFQXd3RllXeHBZMlV3V1RBVEJnY3Foa2pPUFFJQkJnZ3Foa2pPUFFNQgpCd05DQUFSU01oTWw4WVFwK1A3WTE4NFlpU3BUTXN2cVFoWG1Ocit0cVFPdk9qVnlWaFpsTkpaR2J1eElMOWtOCkdzc1hSd1dkREQ5VDZhRmhldlNhb0h1S0prd0pvQUF3Q2dZSUtvWkl6ajBFQXdJRFNBQXdSUUlnY0Z3OXk2aDIKNDNhcEdxU3VpVXNRcHZ5RjJlK0RUUnh5OFdkQVc1QkZHaFVDSVFDdVhmODNRM1JmVHYrNVJqWmlHd0djMUcwbwo3eVF1UEhnWktCeHJiSVhNQWc9PQotLS0tLUVORCBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0K";
