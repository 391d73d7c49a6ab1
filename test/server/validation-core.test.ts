/**
 * Issues 31 and 36: core/v1 specs validated as kube-apiserver 1.37 validates them (reason Invalid,
 * the same causes) — Pods (create and update), ReplicationControllers (and their defaulting from the
 * template), Services, ConfigMaps, Secrets, Namespaces, claims, LimitRanges, ResourceQuotas,
 * Endpoints — and Nodes' `spec.unschedulable: false`, dropped and still selected by
 * `spec.unschedulable=false`. The broader comparison is `pnpm diff:server` (specs/core*.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invalidAnswer, invalidWith } from "../support/invalid-status.js";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
const ns = uniqueName("val-core");
const core = (resource: string) => `/api/v1/namespaces/${ns}/${resource}`;
const nodes: string[] = [];

beforeAll(async () => {
  t = await startTarget();
  expect((await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } })).status).toBe(201);
  // Pods need their service account (no controller-manager creates `default` on the real server here).
  await t.call("POST", core("serviceaccounts"), { body: { metadata: { name: "default" } } });
});
afterAll(async () => {
  for (const n of nodes) await t?.call("DELETE", `/api/v1/nodes/${n}`);
  await t?.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t?.close();
});

const containers = [{ name: "c", image: "busybox" }];
const create = (resource: string, body: Record<string, unknown>) =>
  t.call("POST", core(resource), { body: { metadata: { name: uniqueName("o") }, ...body } });

describe("Pods", () => {
  it("validates containers, ports, env, resources, volumes, mounts and policies", async () => {
    const res = await create("pods", {
      spec: {
        containers: [
          {
            name: "c",
            image: "i",
            ports: [{ containerPort: 70000, name: "UPPER" }],
            env: [{ name: "a=b" }],
            resources: { requests: { cpu: "2" }, limits: { cpu: "1" } },
            volumeMounts: [{ name: "missing", mountPath: "/m" }],
          },
        ],
        volumes: [
          { name: "v", emptyDir: {}, configMap: { name: "x" } },
          { name: "v", emptyDir: {} },
        ],
        restartPolicy: "Sometimes",
        dnsPolicy: "Cluster",
      },
    });
    expect(invalidAnswer(res)).toEqual(
      invalidWith(
        "spec.volumes[0].configMap | FieldValueForbidden | Forbidden: may not specify more than 1 volume type",
        'spec.containers[0].ports[0].name | FieldValueInvalid | Invalid value: "UPPER": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
        'spec.containers[0].ports[0].name | FieldValueInvalid | Invalid value: "UPPER": must contain at least one letter (a-z)',
        "spec.containers[0].ports[0].containerPort | FieldValueInvalid | Invalid value: 70000: must be between 1 and 65535, inclusive",
        "spec.containers[0].env[0].name | FieldValueInvalid | Invalid value: \"a=b\": a valid environment variable name must consist only of printable ASCII characters other than '='",
        'spec.containers[0].volumeMounts[0].name | FieldValueNotFound | Not found: "missing"',
        'spec.containers[0].resources.requests | FieldValueInvalid | Invalid value: "2": must be less than or equal to cpu limit of 1',
        'spec.restartPolicy | FieldValueNotSupported | Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
        'spec.dnsPolicy | FieldValueNotSupported | Unsupported value: "Cluster": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
      ),
    );
  });

  it("needs containers, each named once and with an image", async () => {
    expect(invalidAnswer(await create("pods", { spec: {} }))).toEqual(
      invalidWith("spec.containers | FieldValueRequired | Required value"),
    );
    const res = await create("pods", { spec: { containers: [{ name: "c" }, { name: "c", image: "i" }] } });
    expect(invalidAnswer(res)).toEqual(
      invalidWith(
        "spec.containers[0].image | FieldValueRequired | Required value",
        'spec.containers[1].name | FieldValueDuplicate | Duplicate value: "c"',
      ),
    );
  });

  it("defaults requests from limits, so a limit alone is valid", async () => {
    const res = await create("pods", {
      spec: { containers: [{ name: "c", image: "i", resources: { limits: { cpu: "1", memory: "1Gi" } } }] },
    });
    expect(res.status).toBe(201);
    expect(res.json.spec.containers[0].resources.requests).toEqual({ cpu: "1", memory: "1Gi" });
  });

  // Upstream's "Projected PodCertificate … MaxExpirationSeconds validations" conformance tests.
  it("bounds a projected pod certificate's maxExpirationSeconds (one day for kubernetes.io signers)", async () => {
    const cert = (signerName: string, path: string, maxExpirationSeconds: number) => ({
      podCertificate: { signerName, keyType: "ED25519", credentialBundlePath: path, maxExpirationSeconds },
    });
    const sources = [
      cert("example.com/spiffe", "short.pem", 600),
      cert("kubernetes.io/kube-apiserver-client-pod", "long.pem", 172800),
      cert("example.com/spiffe", "longer.pem", 91 * 86400 + 1),
      cert("example.com/spiffe", "fine.pem", 91 * 86400),
    ];
    const res = await create("pods", {
      spec: { containers, volumes: [{ name: "certs", projected: { sources } }] },
    });
    const at = "spec.volumes[0].projected.sources";
    expect(invalidAnswer(res)).toEqual(
      invalidWith(
        `${at}[0].podCertificate.maxExpirationSeconds | FieldValueInvalid | Invalid value: 600: if provided, maxExpirationSeconds must be >= 3600`,
        `${at}[1].podCertificate.maxExpirationSeconds | FieldValueInvalid | Invalid value: 172800: if provided, maxExpirationSeconds must be <= 86400`,
        `${at}[2].podCertificate.maxExpirationSeconds | FieldValueInvalid | Invalid value: 7862401: if provided, maxExpirationSeconds must be <= 7862400`,
      ),
    );
  });

  it("refuses an update of anything but images, the deadline, tolerations and scheduling gates", async () => {
    const created = await create("pods", { spec: { containers } });
    expect(created.status).toBe(201);
    const path = `${core("pods")}/${created.json.metadata.name}`;
    const image = structuredClone(created.json);
    image.spec.containers[0].image = "busybox:2";
    const changedImage = await t.call("PUT", path, { body: image });
    expect(changedImage.status).toBe(200);
    const next = structuredClone(changedImage.json);
    next.spec.containers[0].env = [{ name: "A", value: "1" }];
    const res = await t.call("PUT", path, { body: next });
    const answer = invalidAnswer(res);
    expect([answer.status, answer.causes.length]).toEqual([422, 1]);
    expect(answer.causes[0]).toMatch(
      /^spec \| FieldValueForbidden \| Forbidden: pod updates may not change fields other than `spec\.containers\[\*\]\.image`,`spec\.initContainers\[\*\]\.image`,`spec\.activeDeadlineSeconds`,`spec\.tolerations` \(only additions to existing tolerations\),`spec\.terminationGracePeriodSeconds` \(allow it to be set to 1 if it was previously negative\)\n/,
    );
    const fewer = structuredClone(changedImage.json);
    fewer.spec.containers = [];
    expect(invalidAnswer(await t.call("PUT", path, { body: fewer }))).toEqual(
      invalidWith(
        "spec.containers | FieldValueRequired | Required value",
        "spec.containers | FieldValueForbidden | Forbidden: pod updates may not add or remove containers",
      ),
    );
  });
});

describe("ReplicationControllers", () => {
  it("take their selector and labels from the template when they have none (defaulting)", async () => {
    const res = await create("replicationcontrollers", {
      spec: {
        replicas: 0,
        template: { metadata: { labels: { app: "rc", tier: "web" } }, spec: { containers } },
      },
    });
    expect(res.status).toBe(201);
    expect([res.json.spec.selector, res.json.metadata.labels]).toEqual([
      { app: "rc", tier: "web" },
      { app: "rc", tier: "web" },
    ]);
    const stored = await t.call("GET", `${core("replicationcontrollers")}/${res.json.metadata.name}`);
    expect(stored.json.spec.selector).toEqual({ app: "rc", tier: "web" });
  });

  it("keep a selector and labels of their own", async () => {
    const res = await t.call("POST", core("replicationcontrollers"), {
      body: {
        metadata: { name: uniqueName("rc"), labels: { own: "yes" } },
        spec: {
          replicas: 0,
          selector: { app: "rc" },
          template: { metadata: { labels: { app: "rc", x: "y" } }, spec: { containers } },
        },
      },
    });
    expect([res.status, res.json.spec.selector, res.json.metadata.labels]).toEqual([
      201,
      { app: "rc" },
      { own: "yes" },
    ]);
  });

  it("need a selector, a template and a non-negative replica count", async () => {
    expect(invalidAnswer(await create("replicationcontrollers", { spec: { replicas: -1 } }))).toEqual(
      invalidWith(
        "spec.selector | FieldValueRequired | Required value",
        "spec.template | FieldValueRequired | Required value",
        "spec.replicas | FieldValueInvalid | Invalid value: -1: must be greater than or equal to 0",
      ),
    );
  });
});

describe("Services, ConfigMaps, Secrets, Namespaces", () => {
  it("a Service's type and ports", async () => {
    const res = await create("services", { spec: { type: "Blue", ports: [{ port: 80 }, { port: 80 }] } });
    expect(invalidAnswer(res)).toEqual(
      invalidWith(
        "spec.ports[0].name | FieldValueRequired | Required value",
        "spec.ports[1].name | FieldValueRequired | Required value",
        'spec.type | FieldValueNotSupported | Unsupported value: "Blue": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
        'spec.ports[1] | FieldValueDuplicate | Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":80,"TargetPort":0,"NodePort":0}',
      ),
    );
    expect(invalidAnswer(await create("services", { spec: {} }))).toEqual(
      invalidWith("spec.ports | FieldValueRequired | Required value"),
    );
  });

  it("ConfigMap keys", async () => {
    const res = await create("configmaps", { data: { "a/b": "x", "..x": "y" } });
    expect(invalidAnswer(res)).toEqual(
      invalidWith(
        "data[a/b] | FieldValueInvalid | Invalid value: \"a/b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
        "data[..x] | FieldValueInvalid | Invalid value: \"..x\": must not start with '..'",
      ),
    );
  });

  it("an immutable ConfigMap keeps its data", async () => {
    const created = await create("configmaps", { data: { a: "1" }, immutable: true });
    expect(created.status).toBe(201);
    const res = await t.call("PUT", `${core("configmaps")}/${created.json.metadata.name}`, {
      body: { ...created.json, data: { a: "2" } },
    });
    expect(invalidAnswer(res)).toEqual(
      invalidWith("data | FieldValueForbidden | Forbidden: field is immutable when `immutable` is set"),
    );
  });

  it("a TLS Secret needs its key, and a Secret's type may not change", async () => {
    expect(
      invalidAnswer(await create("secrets", { type: "kubernetes.io/tls", data: { "tls.crt": "YQ==" } })),
    ).toEqual(invalidWith("data[tls.key] | FieldValueRequired | Required value"));
    const created = await create("secrets", { data: { a: "YQ==" } });
    expect(created.status).toBe(201);
    const res = await t.call("PUT", `${core("secrets")}/${created.json.metadata.name}`, {
      body: { ...created.json, type: "example.com/other" },
    });
    expect(invalidAnswer(res)).toEqual(
      invalidWith('type | FieldValueInvalid | Invalid value: "example.com/other": field is immutable'),
    );
  });

  it("a Namespace's spec finalizers", async () => {
    const res = await t.call("POST", "/api/v1/namespaces", {
      body: { metadata: { name: uniqueName("nsfin") }, spec: { finalizers: ["custom"] } },
    });
    expect(invalidAnswer(res)).toEqual(
      invalidWith(
        'spec.finalizers | FieldValueInvalid | Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
      ),
    );
  });
});

describe("claims, limit ranges, quotas, endpoints", () => {
  it.each([
    [
      "persistentvolumeclaims",
      { spec: { accessModes: [], resources: { requests: { storage: "0" } } } },
      [
        "spec.accessModes | FieldValueRequired | Required value: at least 1 access mode is required",
        'spec.resources[storage] | FieldValueInvalid | Invalid value: "0": must be greater than zero',
      ],
    ],
    [
      "limitranges",
      { spec: { limits: [{ type: "Container", min: { cpu: "2" }, max: { cpu: "1" } }] } },
      [
        'spec.limits[0].min[cpu] | FieldValueInvalid | Invalid value: "2": min value 2 is greater than max value 1',
        'spec.limits[0].defaultRequest[cpu] | FieldValueInvalid | Invalid value: "1": min value 2 is greater than default request value 1',
        'spec.limits[0].default[cpu] | FieldValueInvalid | Invalid value: "2": min value 2 is greater than default value 1',
      ],
    ],
    [
      "resourcequotas",
      { spec: { hard: { pods: "1500m" }, scopes: ["Terminating", "NotTerminating"] } },
      [
        'spec.hard[pods] | FieldValueInvalid | Invalid value: "1500m": must be an integer',
        'spec.scopes | FieldValueInvalid | Invalid value: ["Terminating","NotTerminating"]: conflicting scopes',
      ],
    ],
    [
      "endpoints",
      { subsets: [{ addresses: [{ ip: "127.0.0.1" }] }] },
      [
        'subsets[0].addresses[0].ip | FieldValueInvalid | Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      ],
    ],
  ])("%s", async (resource, body, causes) => {
    expect(invalidAnswer(await create(resource, body))).toEqual(invalidWith(...causes));
  });

  // Upstream's e2e test "ResourceQuota ... capture the life of a configMap" limits `resourcequotas`.
  it("quotas limit the count of quotas as resourcequotas, not as quotas", async () => {
    // A dry run: a stored quota without status would hold back later creates on kube-apiserver.
    const valid = await t.call("POST", `${core("resourcequotas")}?dryRun=All`, {
      body: { metadata: { name: "counts-quotas" }, spec: { hard: { resourcequotas: "1" } } },
    });
    expect(valid.status).toBe(201);
    const res = await create("resourcequotas", { spec: { hard: { quotas: "1" } } });
    expect(invalidAnswer(res)).toEqual(
      invalidWith(
        'spec.hard[quotas] | FieldValueInvalid | Invalid value: "quotas": must be a standard resource type or fully qualified',
        'spec.hard[quotas] | FieldValueInvalid | Invalid value: "quotas": must be a standard resource for quota',
      ),
    );
  });
});

describe("Nodes and spec.unschedulable", () => {
  const node = async (spec: Record<string, unknown> | undefined) => {
    const name = uniqueName("node");
    nodes.push(name);
    const res = await t.call("POST", "/api/v1/nodes", {
      body: { metadata: { name }, ...(spec ? { spec } : {}) },
    });
    expect(res.status).toBe(201);
    return res;
  };
  const ours = (json: { items: { metadata: { name: string } }[] }) =>
    json.items
      .map((n) => n.metadata.name)
      .filter((n) => nodes.includes(n))
      .sort();

  it("drops unschedulable: false and selects nodes without the field by spec.unschedulable=false", async () => {
    const withFalse = await node({ unschedulable: false });
    expect(withFalse.json.spec ?? {}).not.toHaveProperty("unschedulable");
    const without = await node(undefined);
    const cordoned = await node({ unschedulable: true });
    expect(cordoned.json.spec.unschedulable).toBe(true);
    const schedulable = await t.call("GET", "/api/v1/nodes?fieldSelector=spec.unschedulable%3Dfalse");
    expect(ours(schedulable.json)).toEqual([withFalse.json.metadata.name, without.json.metadata.name].sort());
    const unschedulable = await t.call("GET", "/api/v1/nodes?fieldSelector=spec.unschedulable%3Dtrue");
    expect(ours(unschedulable.json)).toEqual([cordoned.json.metadata.name]);
  });

  it("refuses duplicate taints", async () => {
    const res = await t.call("POST", "/api/v1/nodes", {
      body: {
        metadata: { name: uniqueName("node") },
        spec: {
          taints: [
            { key: "k", effect: "NoSchedule" },
            { key: "k", effect: "NoSchedule", value: "v" },
          ],
        },
      },
    });
    expect(invalidAnswer(res)).toEqual(
      invalidWith(
        'metadata.taints[1] | FieldValueDuplicate | Duplicate value: {"Key":"k","Value":"v","Effect":"NoSchedule","TimeAdded":null}: taints must be unique by key and effect pair',
      ),
    );
  });
});
