/**
 * Server-side printing of admission configuration, flow-control and DRA kinds: columns and cells as
 * kube-apiserver serves them in Tables. Everything created matches no real request (admission rules
 * name a group nobody serves, flow schemas no user), and cluster-scoped objects are deleted
 * afterwards: the real server is shared by the run.
 */
import { describe, expect, it } from "vitest";
import { columnNames, nowSeconds, TABLE, useTableSuite } from "./table-read.js";

const s = useTableSuite("tables-admission");
const { table, clusterName } = s;
const names = columnNames;

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
    const labels = { "tables.kubesdk.example/suite": s.ns };
    const found = await table(
      schemas,
      {
        metadata: { name: clusterName(schemas, "fs-a"), labels },
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
        metadata: { name: clusterName(schemas, "fs-b"), labels },
        spec: { priorityLevelConfiguration: { name: `${level}-missing` } },
      },
      dangling("True"),
    );
    expect(missing.cells.slice(1)).toEqual([`${level}-missing`, 1000, "<none>", "AGE", "True"]);
    // A list prints in matching order (precedence first), not in the list's name order.
    const selector = encodeURIComponent(`tables.kubesdk.example/suite=${s.ns}`);
    const list = await s.t.call("GET", `${schemas}?labelSelector=${selector}`, { accept: TABLE });
    expect(list.status, list.text).toBe(200);
    expect(list.json.rows.map((r: { cells: unknown[] }) => r.cells[0])).toEqual([
      missing.cells[0],
      found.cells[0],
    ]);
  });

  it("device classes, resource claims and templates, resource slices", async () => {
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
  });

  it("device taint rules: the taint and the time since it was added", async () => {
    const dra = "/apis/resource.k8s.io/v1";
    const rules = `${dra}/devicetaintrules`;
    const rule = await table(rules, {
      metadata: { name: clusterName(rules, "dtr") },
      spec: { taint: { key: "k", value: "v", effect: "NoSchedule", timeAdded: nowSeconds() } },
    });
    expect(names(rule.cols)).toEqual(["Name", "Key", "Value", "Effect", "TimeAdded", "Age"]);
    expect(rule.cells.slice(1)).toEqual(["k", "v", "NoSchedule", "AGE", "AGE"]);
  });
});
