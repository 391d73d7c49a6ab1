/**
 * The default admission plugins besides NamespaceLifecycle, LimitRanger, ServiceAccount and
 * ResourceQuota, on both servers (packages/server/src/admission/plugins/): Priority,
 * DefaultTolerationSeconds and DefaultStorageClass. Pods are created as dry runs, so nothing is left
 * for a scheduler; classes marked default are deleted at once, as they change every pod or claim
 * created meanwhile. kube-apiserver's plugins read classes from informers, so a class just created
 * may not be seen at once: the first dry run that depends on it is repeated until it is.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes.
type Json = any;

let t: TestTarget;
let ns: string;

const container = { name: "main", image: "busybox" };

const dryRunPod = (spec: Json) =>
  t.call("POST", `/api/v1/namespaces/${ns}/pods?dryRun=All`, {
    body: { metadata: { name: uniqueName("pod") }, spec: { containers: [container], ...spec } },
  });

const priorityClasses = "/apis/scheduling.k8s.io/v1/priorityclasses";
const storageClasses = "/apis/storage.k8s.io/v1/storageclasses";

async function create(path: string, body: Json): Promise<Json> {
  const res = await t.call("POST", path, { body });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

/** `attempt` repeated until its expectations hold (admission sees classes through informers upstream). */
const seen = <T>(attempt: () => Promise<T>) => vi.waitFor(attempt, { timeout: 5000 });

/** Runs `body` while `object` exists, deleting it afterwards even when `body` fails. */
async function withObject(path: string, object: Json, body: () => Promise<void>): Promise<void> {
  await create(path, object);
  try {
    await body();
  } finally {
    await t.call("DELETE", `${path}/${object.metadata.name}`);
  }
}

beforeAll(async () => {
  t = await startTarget();
  ns = uniqueName("admission-plugins");
  await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
  // kube-apiserver alone has no ServiceAccount controller; the reference server's may be first.
  const sa = await t.call("POST", `/api/v1/namespaces/${ns}/serviceaccounts`, {
    body: { metadata: { name: "default" } },
  });
  expect([201, 409], sa.text).toContain(sa.status);
});
afterAll(async () => {
  await t.call("DELETE", `/api/v1/namespaces/${ns}`);
  await t.close();
});

describe("Priority admission", () => {
  it("the server has the two system PriorityClasses from the start", async () => {
    const node = await t.call("GET", `${priorityClasses}/system-node-critical`);
    expect(node.status, node.text).toBe(200);
    expect(node.json).toMatchObject({ value: 2000001000, preemptionPolicy: "PreemptLowerPriority" });
    expect(node.json.globalDefault ?? false).toBe(false);
    const cluster = await t.call("GET", `${priorityClasses}/system-cluster-critical`);
    expect(cluster.status, cluster.text).toBe(200);
    expect(cluster.json).toMatchObject({ value: 2000000000, preemptionPolicy: "PreemptLowerPriority" });
  });

  it("a pod naming no class gets priority 0 and PreemptLowerPriority, and no class name", async () => {
    const res = await dryRunPod({});
    expect(res.status, res.text).toBe(201);
    expect(res.json.spec.priority).toBe(0);
    expect(res.json.spec.preemptionPolicy).toBe("PreemptLowerPriority");
    expect(res.json.spec.priorityClassName).toBeUndefined();
  });

  it("a pod naming a class takes its value and preemption policy; a system class resolves too", async () => {
    const name = uniqueName("pc");
    await withObject(
      priorityClasses,
      { metadata: { name }, value: 4242, preemptionPolicy: "Never" },
      async () => {
        const res = await seen(async () => {
          const r = await dryRunPod({ priorityClassName: name });
          expect(r.status, r.text).toBe(201);
          return r;
        });
        expect(res.json.spec).toMatchObject({
          priorityClassName: name,
          priority: 4242,
          preemptionPolicy: "Never",
        });
      },
    );
    const critical = await dryRunPod({ priorityClassName: "system-cluster-critical" });
    expect(critical.status, critical.text).toBe(201);
    expect(critical.json.spec.priority).toBe(2000000000);
  });

  it("a pod naming no class takes the global default class, its name included", async () => {
    const name = uniqueName("pc-default");
    await withObject(priorityClasses, { metadata: { name }, value: 77, globalDefault: true }, async () => {
      const res = await seen(async () => {
        const r = await dryRunPod({});
        expect(r.json.spec?.priorityClassName, r.text).toBe(name);
        return r;
      });
      expect(res.json.spec).toMatchObject({
        priorityClassName: name,
        priority: 77,
        preemptionPolicy: "PreemptLowerPriority",
      });
      const second = await t.call("POST", priorityClasses, {
        body: { metadata: { name: `${name}-2` }, value: 78, globalDefault: true },
      });
      expect(second.status, second.text).toBe(403);
      expect(second.json.message).toBe(
        `priorityclasses.scheduling.k8s.io "${name}-2" is forbidden: PriorityClass ${name} is already marked as default. Only one default can exist`,
      );
    });
  });

  it("an unknown class, and a priority or policy that disagrees with the class, are refused 403", async () => {
    const unknown = await dryRunPod({ priorityClassName: "no-such-class" });
    expect(unknown.status, unknown.text).toBe(403);
    expect(unknown.json.message).toMatch(
      /^pods ".+" is forbidden: no PriorityClass with name no-such-class was found$/,
    );
    const priority = await dryRunPod({ priority: 5 });
    expect(priority.status, priority.text).toBe(403);
    expect(priority.json.message).toMatch(
      /is forbidden: the integer value of priority \(5\) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name$/,
    );
    const agreeing = await dryRunPod({ priority: 0, preemptionPolicy: "PreemptLowerPriority" });
    expect(agreeing.status, agreeing.text).toBe(201);
    const policy = await dryRunPod({ preemptionPolicy: "Never" });
    expect(policy.status, policy.text).toBe(403);
    expect(policy.json.message).toMatch(
      /is forbidden: the string value of PreemptionPolicy \(Never\) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name$/,
    );
  });
});

describe("DefaultTolerationSeconds admission", () => {
  const notReady = { key: "node.kubernetes.io/not-ready", operator: "Exists", effect: "NoExecute" };
  const unreachable = { key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoExecute" };

  it("a pod gets 300 s not-ready and unreachable NoExecute tolerations after its own", async () => {
    const own = { key: "dedicated", operator: "Equal", value: "x", effect: "NoSchedule" };
    const res = await dryRunPod({ tolerations: [own] });
    expect(res.status, res.text).toBe(201);
    expect(res.json.spec.tolerations).toEqual([
      own,
      { ...notReady, tolerationSeconds: 300 },
      { ...unreachable, tolerationSeconds: 300 },
    ]);
  });

  it("a pod that tolerates one of the taints keeps its toleration; one tolerating every taint gets none", async () => {
    const mine = { ...unreachable, tolerationSeconds: 10 };
    const res = await dryRunPod({ tolerations: [mine] });
    expect(res.status, res.text).toBe(201);
    expect(res.json.spec.tolerations).toEqual([mine, { ...notReady, tolerationSeconds: 300 }]);
    const all = await dryRunPod({ tolerations: [{ operator: "Exists" }] });
    expect(all.status, all.text).toBe(201);
    expect(all.json.spec.tolerations).toEqual([{ operator: "Exists" }]);
  });
});

describe("DefaultStorageClass admission", () => {
  const claim = (spec: Json = {}) => ({
    metadata: { name: uniqueName("claim") },
    spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } }, ...spec },
  });
  const claims = () => `/api/v1/namespaces/${ns}/persistentvolumeclaims?dryRun=All`;

  it("a claim naming no class gets the default class; an empty class name stays empty; none without a default", async () => {
    const before = await create(claims(), claim());
    expect(before.spec.storageClassName).toBeUndefined();
    const name = uniqueName("sc-default");
    const sc = {
      metadata: { name, annotations: { "storageclass.kubernetes.io/is-default-class": "true" } },
      provisioner: "example.com/none",
    };
    await withObject(storageClasses, sc, async () => {
      await seen(async () => expect((await create(claims(), claim())).spec.storageClassName).toBe(name));
      const empty = await create(claims(), claim({ storageClassName: "" }));
      expect(empty.spec.storageClassName).toBe("");
      const other = await create(claims(), claim({ storageClassName: "other" }));
      expect(other.spec.storageClassName).toBe("other");
    });
  });
});

describe("TaintNodesByCondition admission", () => {
  it("a new node is tainted not-ready NoSchedule after its own taints, unless it already is", async () => {
    const own = { key: "dedicated", value: "x", effect: "NoExecute" };
    const name = uniqueName("node");
    const res = await t.call("POST", "/api/v1/nodes?dryRun=All", {
      body: { metadata: { name }, spec: { taints: [own] } },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.spec.taints).toEqual([
      own,
      { key: "node.kubernetes.io/not-ready", effect: "NoSchedule" },
    ]);
    const already = { key: "node.kubernetes.io/not-ready", value: "v", effect: "NoSchedule" };
    const tainted = await t.call("POST", "/api/v1/nodes?dryRun=All", {
      body: { metadata: { name: `${name}-2` }, spec: { taints: [already] } },
    });
    expect(tainted.status, tainted.text).toBe(201);
    expect(tainted.json.spec.taints).toEqual([already]);
  });
});

describe("StorageObjectInUseProtection admission", () => {
  it("new claims and volumes get their protection finalizers", async () => {
    const claim = await create(`/api/v1/namespaces/${ns}/persistentvolumeclaims?dryRun=All`, {
      metadata: { name: uniqueName("claim"), finalizers: ["example.com/mine"] },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
    });
    expect(claim.metadata.finalizers).toEqual(["example.com/mine", "kubernetes.io/pvc-protection"]);
    const volume = await create("/api/v1/persistentvolumes?dryRun=All", {
      metadata: { name: uniqueName("pv") },
      spec: {
        capacity: { storage: "1Gi" },
        accessModes: ["ReadWriteOnce"],
        hostPath: { path: "/tmp/pv" },
      },
    });
    expect(volume.metadata.finalizers).toEqual(["kubernetes.io/pv-protection"]);
  });
});

describe("DefaultIngressClass admission", () => {
  it("an ingress naming no class gets the default IngressClass; one naming a class keeps it", async () => {
    const ingresses = `/apis/networking.k8s.io/v1/namespaces/${ns}/ingresses?dryRun=All`;
    const ingress = (spec: Json = {}) => ({
      metadata: { name: uniqueName("ing") },
      spec: { defaultBackend: { service: { name: "web", port: { number: 80 } } }, ...spec },
    });
    const name = uniqueName("ic-default");
    const ic = {
      metadata: { name, annotations: { "ingressclass.kubernetes.io/is-default-class": "true" } },
      spec: { controller: "example.com/ingress" },
    };
    await withObject("/apis/networking.k8s.io/v1/ingressclasses", ic, async () => {
      await seen(async () => expect((await create(ingresses, ingress())).spec.ingressClassName).toBe(name));
      const own = await create(ingresses, ingress({ ingressClassName: "other" }));
      expect(own.spec.ingressClassName).toBe("other");
    });
  });
});

describe("CertificateSubjectRestriction admission", () => {
  /** A P-256 request for CN=admin, O=system:masters (made with openssl req). */
  const MASTERS_CSR =
    "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIak1JR0xBZ0VBTUNreEZ6QVZCZ05WQkFvTURuTjVjM1JsYlRwdFlYTjBaWEp6TVE0d0RBWURWUVFEREFWaApaRzFwYmpCWk1CTUdCeXFHU000OUFnRUdDQ3FHU000OUF3RUhBMElBQkoydTE5LzNIdmN5QkdLZzJnL3laU3JDClZGWTN0WGJBL3VESjAwZUF5Q3VzSlk2T2hMekVNL1NLcElQNFJ6anRZMTRvYjZzMEtsb0NPU1Q4T1Z2QkViK2cKQURBS0JnZ3Foa2pPUFFRREFnTkhBREJFQWlBMHg0RWVjRG51SG12ZHg4NGtRVGJzZmovYVdJdXRlQmRrbTdVYgpjTEpvTUFJZ016UWZINnliUjJoT0JtaWlLWTlvY3BmZnZZTERCYTJPZm03NHNVRkV5aTA9Ci0tLS0tRU5EIENFUlRJRklDQVRFIFJFUVVFU1QtLS0tLQo=";
  const csr = (signerName: string) => ({
    metadata: { name: uniqueName("csr") },
    spec: { request: MASTERS_CSR, signerName, usages: ["client auth"] },
  });
  const CSRS = "/apis/certificates.k8s.io/v1/certificatesigningrequests?dryRun=All";

  it("a kube-apiserver-client request for system:masters is refused; another signer's is not", async () => {
    const body = csr("kubernetes.io/kube-apiserver-client");
    const refused = await t.call("POST", CSRS, { body });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.json.message).toBe(
      `certificatesigningrequests.certificates.k8s.io "${body.metadata.name}" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed`,
    );
    await create(CSRS, csr("example.com/other"));
  });
});

describe("RuntimeClass admission", () => {
  const toleration = { key: "k", operator: "Exists", effect: "NoSchedule" };
  const rc = (name: string) => ({
    metadata: { name },
    handler: "h",
    overhead: { podFixed: { cpu: "100m", memory: "10Mi" } },
    scheduling: { nodeSelector: { a: "1" }, tolerations: [toleration] },
  });
  const refusal = async (spec: Json) => {
    const res = await dryRunPod(spec);
    expect(res.status, res.text).toBe(403);
    return String(res.json.message).replace(/^pods ".+" is forbidden: /, "");
  };

  it("a pod takes its RuntimeClass's overhead, node selector and tolerations", async () => {
    const name = uniqueName("rc");
    await withObject("/apis/node.k8s.io/v1/runtimeclasses", rc(name), async () => {
      const res = await seen(async () => {
        const r = await dryRunPod({ runtimeClassName: name, nodeSelector: { b: "2" } });
        expect(r.status, r.text).toBe(201);
        return r;
      });
      expect(res.json.spec.overhead).toEqual({ cpu: "100m", memory: "10Mi" });
      expect(res.json.spec.nodeSelector).toEqual({ a: "1", b: "2" });
      expect(res.json.spec.tolerations).toContainEqual(toleration);
      expect(await refusal({ runtimeClassName: name, overhead: { cpu: "1" } })).toBe(
        "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead",
      );
      expect(await refusal({ runtimeClassName: name, nodeSelector: { a: "2" } })).toBe(
        "conflict: runtimeClass.scheduling.nodeSelector[a] = 1; pod.spec.nodeSelector[a] = 2",
      );
    });
  });

  it("a missing class, and an overhead without a class, are refused", async () => {
    expect(await refusal({ runtimeClassName: "no-such-class" })).toBe(
      'pod rejected: RuntimeClass "no-such-class" not found',
    );
    expect(await refusal({ overhead: { cpu: "1" } })).toBe(
      "pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead",
    );
  });
});
