/**
 * Zero values of built-in kinds as kube-apiserver stores them: it decodes a write into the kind's
 * Go struct and answers Go's encoding of it. A `""`, `0` or `false` in a non-pointer field cannot
 * be told from no value: in an `omitempty` field it is defaulted as if absent, owned by no Update
 * manager and no field of the stored object (a server-side apply still owns what it applied; a
 * pointer field such as `replicas: 0` keeps it). Go's encoding also writes fields whatever the
 * object holds: a field without `omitempty` has its zero value when the object has none (`""`, `0`,
 * `false`; `null` for a slice, also an empty one, which its protobuf storage keeps as none), and a
 * non-pointer struct is always there with such fields. A `null` sent there is no value to Go: it is
 * owned by no manager. Nothing filled in is owned either (the field manager compares with the
 * kind's zero object).
 */
import { afterAll, describe, expect, it } from "vitest";
import { useNamespaceSuite } from "../support/namespace-suite.js";
import { type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
let ns: string;

useNamespaceSuite("go-written", (target, name) => {
  t = target;
  ns = name;
});

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

type Fields = { [k: string]: Fields };
type Managed = { metadata: { managedFields?: { manager: string; fieldsV1: Fields }[] } };
const fieldSets = (obj: Managed) => (obj.metadata.managedFields ?? []).map((m) => m.fieldsV1);
const fieldSetsByManager = (obj: Managed) =>
  Object.fromEntries((obj.metadata.managedFields ?? []).map((m) => [m.manager, m.fieldsV1]));

const template = (app: string) => ({
  selector: { matchLabels: { app } },
  template: { metadata: { labels: { app } }, spec: { containers: [{ name: "c", image: "nginx:1" }] } },
});

describe("fields Go always writes, of built-in kinds", () => {
  it("writes a Role's rules as null whether empty, null or absent; only [] is owned", async () => {
    const roles = `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`;
    const empty = await t.call("POST", roles, { body: { metadata: { name: "empty" }, rules: [] } });
    expect(empty.status, empty.text).toBe(201);
    expect(empty.json.rules).toBeNull();
    expect(fieldSets(empty.json)).toEqual([{ "f:rules": {} }]);
    const nulled = await t.call("POST", roles, { body: { metadata: { name: "nulled" }, rules: null } });
    expect(nulled.status, nulled.text).toBe(201);
    expect(nulled.json.rules).toBeNull();
    expect(nulled.json.metadata.managedFields).toBeUndefined();
    const absent = await t.call("POST", roles, { body: { metadata: { name: "absent" } } });
    expect(absent.status, absent.text).toBe(201);
    expect(Object.hasOwn(absent.json, "rules") && absent.json.rules === null).toBe(true);
    const got = await t.call("GET", `${roles}/absent`);
    expect(got.json.rules).toBeNull();
  });

  it("writes an EndpointSlice's empty endpoints and ports as null", async () => {
    const slices = `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices`;
    const body = { metadata: { name: "empty" }, addressType: "IPv4", endpoints: [] };
    const res = await t.call("POST", slices, { body });
    expect(res.status, res.text).toBe(201);
    expect([res.json.endpoints, res.json.ports]).toEqual([null, null]);
    expect(fieldSets(res.json)).toEqual([{ "f:addressType": {}, "f:endpoints": {} }]);
  });

  it("writes a PriorityClass's value 0 when absent, null or 0, owned by no manager", async () => {
    const path = "/apis/scheduling.k8s.io/v1/priorityclasses";
    for (const value of [undefined, null, 0]) {
      const name = uniqueName("zero-pc");
      cleanups.push(() => t.call("DELETE", `${path}/${name}`));
      const res = await t.call("POST", path, { body: { metadata: { name }, value } });
      expect(res.status, res.text).toBe(201);
      expect(res.json.value).toBe(0);
      expect(fieldSets(res.json)).toEqual([{ "f:preemptionPolicy": {} }]);
    }
  });

  it("writes a StatefulSet's serviceName and the status counters of new workloads", async () => {
    const apps = `/apis/apps/v1/namespaces/${ns}`;
    const sts = await t.call("POST", `${apps}/statefulsets`, {
      body: { metadata: { name: "written" }, spec: template("sts") },
    });
    expect(sts.status, sts.text).toBe(201);
    expect(sts.json.spec.serviceName).toBe("");
    expect(sts.json.spec.updateStrategy).toEqual({
      type: "RollingUpdate",
      rollingUpdate: { partition: 0, maxUnavailable: 1 },
    });
    expect(Object.keys(fieldSets(sts.json)[0]?.["f:spec"] ?? {})).not.toContain("f:serviceName");
    expect(sts.json.status).toEqual({ replicas: 0, availableReplicas: 0 });
    const ds = await t.call("POST", `${apps}/daemonsets`, {
      body: { metadata: { name: "written" }, spec: template("ds") },
    });
    expect(ds.status, ds.text).toBe(201);
    expect(ds.json.status).toEqual({
      currentNumberScheduled: 0,
      numberMisscheduled: 0,
      desiredNumberScheduled: 0,
      numberReady: 0,
    });
    const rs = await t.call("POST", `${apps}/replicasets`, {
      body: { metadata: { name: "written" }, spec: { replicas: 0, ...template("rs") } },
    });
    expect(rs.status, rs.text).toBe(201);
    expect(rs.json.status).toEqual({ replicas: 0 });
  });

  it("owns what a create adds itself (`.`) unless the kind's zero object has it", async () => {
    const body = {
      metadata: { name: "dots", finalizers: ["example.com/keep"] },
      spec: {
        ports: [{ port: 80 }],
        sessionAffinity: "ClientIP",
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 100 } },
      },
    };
    const res = await t.call("POST", `/api/v1/namespaces/${ns}/services`, { body });
    expect(res.status, res.text).toBe(201);
    cleanups.push(() =>
      t.call("PATCH", `/api/v1/namespaces/${ns}/services/dots`, {
        body: { metadata: { finalizers: null } },
        contentType: "application/merge-patch+json",
      }),
    );
    const [fields] = fieldSets(res.json);
    expect(fields?.["f:metadata"]?.["f:finalizers"]).toEqual({ ".": {}, 'v:"example.com/keep"': {} });
    const spec = fields?.["f:spec"] ?? {};
    // spec is a non-pointer struct: the zero object has it, so it is no field itself.
    expect(Object.keys(spec)).not.toContain(".");
    expect(Object.keys(spec["f:ports"] ?? {})).toContain(".");
    expect(spec["f:sessionAffinityConfig"]).toEqual({
      ".": {},
      "f:clientIP": { ".": {}, "f:timeoutSeconds": {} },
    });
  });

  it("owns what an update adds itself (`.`), but not a struct that was there empty", async () => {
    const apps = `/apis/apps/v1/namespaces/${ns}/deployments`;
    const created = await t.call("POST", `${apps}?fieldManager=a`, {
      body: { metadata: { name: "updated-dots" }, spec: template("updated-dots") },
    });
    expect(created.status, created.text).toBe(201);
    const podSpec = {
      securityContext: { runAsUser: 1 },
      containers: [{ name: "c", image: "nginx:1", ports: [{ containerPort: 80 }] }],
    };
    const res = await t.call("PATCH", `${apps}/updated-dots?fieldManager=b`, {
      body: { metadata: { finalizers: ["example.com/keep"] }, spec: { template: { spec: podSpec } } },
      contentType: "application/strategic-merge-patch+json",
    });
    expect(res.status, res.text).toBe(200);
    cleanups.push(() =>
      t.call("PATCH", `${apps}/updated-dots`, {
        body: { metadata: { finalizers: null } },
        contentType: "application/merge-patch+json",
      }),
    );
    const b = fieldSetsByManager(res.json).b as Fields;
    expect(b["f:metadata"]).toEqual({ "f:finalizers": { ".": {}, 'v:"example.com/keep"': {} } });
    const ownedSpec = b["f:spec"]?.["f:template"]?.["f:spec"] ?? {};
    // The defaulted `securityContext: {}` was there: its new field is b's, the struct stays a's.
    expect(ownedSpec["f:securityContext"]).toEqual({ "f:runAsUser": {} });
    expect(Object.keys(ownedSpec["f:containers"]?.['k:{"name":"c"}']?.["f:ports"] ?? {})).toContain(".");
    const a = fieldSetsByManager(res.json).a as Fields;
    expect(a["f:spec"]?.["f:template"]?.["f:spec"]?.["f:securityContext"]).toEqual({});
  });

  it("writes a Node's daemon endpoints and node info on create and on a status update", async () => {
    const name = uniqueName("zero-node");
    cleanups.push(() => t.call("DELETE", `/api/v1/nodes/${name}`));
    const res = await t.call("POST", "/api/v1/nodes", { body: { metadata: { name } } });
    expect(res.status, res.text).toBe(201);
    const nodeInfo = {
      machineID: "",
      systemUUID: "",
      bootID: "",
      kernelVersion: "",
      osImage: "",
      containerRuntimeVersion: "",
      kubeletVersion: "",
      kubeProxyVersion: "",
      operatingSystem: "",
      architecture: "",
    };
    expect(res.json.status.daemonEndpoints).toEqual({ kubeletEndpoint: { Port: 0 } });
    expect(res.json.status.nodeInfo).toEqual(nodeInfo);
    const status = { capacity: { pods: "10" }, nodeInfo: { architecture: "amd64" } };
    const put = await t.call("PUT", `/api/v1/nodes/${name}/status`, { body: { ...res.json, status } });
    expect(put.status, put.text).toBe(200);
    expect(put.json.status.daemonEndpoints).toEqual({ kubeletEndpoint: { Port: 0 } });
    expect(put.json.status.nodeInfo).toEqual({ ...nodeInfo, architecture: "amd64" });
    expect(put.json.status.capacity).toEqual({ pods: "10" });
  });
});

/** A Deployment whose non-pointer omitempty scalars are sent as their zero values. */
function zeroDeployment(name: string) {
  const container = {
    name: "c",
    image: "nginx:1",
    stdin: false,
    tty: false,
    workingDir: "",
    imagePullPolicy: "",
    terminationMessagePath: "",
    ports: [{ containerPort: 80, hostPort: 0, name: "", protocol: "", hostIP: "" }],
  };
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, generateName: "" },
    spec: {
      replicas: 0,
      paused: false,
      minReadySeconds: 0,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { hostNetwork: false, hostname: "", priorityClassName: "", containers: [container] },
      },
    },
  };
}

const deployments = () => `/apis/apps/v1/namespaces/${ns}/deployments`;

describe("zero scalars in omitempty fields of built-in kinds", () => {
  it("are defaulted as if absent and stored as no field, with no managed field for them", async () => {
    const res = await t.call("POST", `${deployments()}?fieldManager=maker`, {
      body: zeroDeployment("zeros"),
    });
    expect(res.status, res.text).toBe(201);
    const { spec } = res.json;
    expect(spec.replicas).toBe(0);
    expect([spec.paused, spec.minReadySeconds, res.json.metadata.generateName]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    const podSpec = spec.template.spec;
    expect([podSpec.hostNetwork, podSpec.hostname, podSpec.priorityClassName]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    const [c] = podSpec.containers;
    expect([c.stdin, c.tty, c.workingDir]).toEqual([undefined, undefined, undefined]);
    expect(c.imagePullPolicy).toBe("IfNotPresent");
    expect(c.terminationMessagePath).toBe("/dev/termination-log");
    expect(c.ports).toEqual([{ containerPort: 80, protocol: "TCP" }]);
    const owned = fieldSetsByManager(res.json).maker as Fields;
    expect(Object.keys(owned["f:spec"] ?? {})).not.toContain("f:paused");
    const ownedContainer = owned["f:spec"]?.["f:template"]?.["f:spec"]?.["f:containers"]?.['k:{"name":"c"}'];
    expect(Object.keys(ownedContainer ?? {})).not.toContain("f:stdin");
    expect(Object.keys(ownedContainer ?? {})).toContain("f:imagePullPolicy");
  });

  it("are owned by the applier that applied them, and stored as no field", async () => {
    const res = await t.call("PATCH", `${deployments()}/applied?fieldManager=applier`, {
      body: zeroDeployment("applied"),
      contentType: "application/apply-patch+yaml",
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.spec.paused).toBeUndefined();
    const [c] = res.json.spec.template.spec.containers;
    expect([c.stdin, c.workingDir, c.imagePullPolicy]).toEqual([undefined, undefined, "IfNotPresent"]);
    const owned = fieldSetsByManager(res.json).applier as Fields;
    expect(Object.keys(owned["f:spec"] ?? {})).toEqual(
      expect.arrayContaining(["f:paused", "f:minReadySeconds", "f:replicas"]),
    );
    const ownedContainer = owned["f:spec"]?.["f:template"]?.["f:spec"]?.["f:containers"]?.['k:{"name":"c"}'];
    expect(Object.keys(ownedContainer ?? {})).toEqual(
      expect.arrayContaining(["f:stdin", "f:tty", "f:workingDir", "f:imagePullPolicy"]),
    );
  });

  it("leave a field the update set to its zero value out, and a patch to false removes it", async () => {
    const body = zeroDeployment("toggled");
    body.spec.paused = true as never;
    const created = await t.call("POST", deployments(), { body });
    expect(created.status, created.text).toBe(201);
    expect(created.json.spec.paused).toBe(true);
    const patched = await t.call("PATCH", `${deployments()}/toggled`, {
      body: { spec: { paused: false } },
      contentType: "application/merge-patch+json",
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json.spec.paused).toBeUndefined();
  });

  it("in an embedded Go struct are the parent's: a probe's handler, a volume's source", async () => {
    const container = {
      name: "c",
      image: "nginx:1",
      livenessProbe: { exec: null, tcpSocket: { port: 80, host: "" }, initialDelaySeconds: 0 },
      env: [{ name: "A", valueFrom: { configMapKeyRef: { name: "cm", key: "k", optional: null } } }],
    };
    const spec = {
      containers: [container],
      volumes: [{ name: "v", emptyDir: {}, configMap: null, secret: null }],
    };
    const body = zeroDeployment("embedded");
    body.spec.template.spec = spec as never;
    const res = await t.call("POST", deployments(), { body });
    expect(res.status, res.text).toBe(201);
    const podSpec = res.json.spec.template.spec;
    expect(podSpec.volumes).toEqual([{ name: "v", emptyDir: {} }]);
    const [c] = podSpec.containers;
    expect(c.livenessProbe).toEqual({
      tcpSocket: { port: 80 },
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    });
    expect(c.env).toEqual([{ name: "A", valueFrom: { configMapKeyRef: { name: "cm", key: "k" } } }]);
  });

  it("drop a webhook's empty caBundle", async () => {
    const name = uniqueName("zero-webhook");
    const path = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations";
    cleanups.push(() => t.call("DELETE", `${path}/${name}`));
    const webhook = {
      name: "zero.example.com",
      clientConfig: { url: "https://zero.example.com/validate", caBundle: "" },
      sideEffects: "None",
      admissionReviewVersions: ["v1"],
      // Matches nothing: no rules.
      rules: [],
    };
    const res = await t.call("POST", path, { body: { metadata: { name }, webhooks: [webhook] } });
    expect(res.status, res.text).toBe(201);
    expect(res.json.webhooks[0].clientConfig).toEqual({ url: "https://zero.example.com/validate" });
    expect(res.json.webhooks[0].rules).toBeUndefined();
  });
});
