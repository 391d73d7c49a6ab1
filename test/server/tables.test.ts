/**
 * Server-side printing of built-in kinds: the columns and cells kube-apiserver
 * serves in Tables (what `kubectl get` shows), for objects with a known status.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";
import { nowSeconds, TABLE, tableOf } from "./table-read.js";

let t: TestTarget;
let ns: string;

beforeAll(async () => {
  t = await startTarget({ controllers: false });
  ns = uniqueName("tables");
  await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
  await t.call("POST", `/api/v1/namespaces/${ns}/serviceaccounts`, {
    body: { metadata: { name: "default" } },
  });
});
afterAll(() => t.close());

const table = (collection: string, body: Record<string, unknown>, status?: Record<string, unknown>) =>
  tableOf(t, collection, body, status);

const container = { name: "c", image: "registry.k8s.io/pause:3.10" };
const template = (app: string) => ({ metadata: { labels: { app } }, spec: { containers: [container] } });

describe("Tables of built-in kinds", () => {
  it("pods: readiness, status, restarts, IP, node", async () => {
    const now = nowSeconds();
    const got = await table(
      `/api/v1/namespaces/${ns}/pods`,
      {
        metadata: { name: "p" },
        spec: { nodeName: "n1", automountServiceAccountToken: false, containers: [container] },
      },
      {
        phase: "Running",
        podIP: "10.1.2.3",
        conditions: [{ type: "Ready", status: "True" }],
        containerStatuses: [
          {
            name: "c",
            image: container.image,
            imageID: "",
            ready: true,
            restartCount: 2,
            state: { running: { startedAt: now } },
          },
        ],
      },
    );
    expect(got.cols).toEqual([
      ["Name", "string", 0],
      ["Ready", "string", 0],
      ["Status", "string", 0],
      ["Restarts", "string", 0],
      ["Age", "string", 0],
      ["IP", "string", 1],
      ["Node", "string", 1],
      ["Nominated Node", "string", 1],
      ["Readiness Gates", "string", 1],
    ]);
    expect(got.cells).toEqual(["p", "1/1", "Running", "2", "AGE", "10.1.2.3", "n1", "<none>", "<none>"]);
  });

  it("pods: a finished pod carries the Completed row condition", async () => {
    const got = await table(
      `/api/v1/namespaces/${ns}/pods`,
      { metadata: { name: "done" }, spec: { automountServiceAccountToken: false, containers: [container] } },
      { phase: "Succeeded" },
    );
    expect(got.cells.slice(0, 4)).toEqual(["done", "0/1", "Succeeded", "0"]);
    expect(got.conditions).toEqual([
      {
        type: "Completed",
        status: "True",
        reason: "Succeeded",
        message: "The pod has completed successfully.",
      },
    ]);
  });

  it("deployments, replica sets, daemon sets, stateful sets", async () => {
    const apps = `/apis/apps/v1/namespaces/${ns}`;
    const selector = { matchLabels: { app: "w" } };
    const dep = await table(
      `${apps}/deployments`,
      { metadata: { name: "d" }, spec: { replicas: 3, selector, template: template("w") } },
      { replicas: 3, readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
    );
    expect(dep.cols.map((c: unknown[]) => c[0])).toEqual([
      "Name",
      "Ready",
      "Up-to-date",
      "Available",
      "Age",
      "Containers",
      "Images",
      "Selector",
    ]);
    expect(dep.cells).toEqual(["d", "2/3", 3, 2, "AGE", "c", container.image, "app=w"]);
    const rs = await table(
      `${apps}/replicasets`,
      { metadata: { name: "r" }, spec: { replicas: 2, selector, template: template("w") } },
      { replicas: 2, readyReplicas: 1 },
    );
    expect(rs.cells).toEqual(["r", 2, 2, 1, "AGE", "c", container.image, "app=w"]);
    const ds = await table(
      `${apps}/daemonsets`,
      {
        metadata: { name: "ds" },
        spec: {
          selector,
          template: { ...template("w"), spec: { nodeSelector: { disk: "ssd" }, containers: [container] } },
        },
      },
      {
        desiredNumberScheduled: 2,
        currentNumberScheduled: 2,
        numberReady: 1,
        numberMisscheduled: 0,
        updatedNumberScheduled: 2,
        numberAvailable: 1,
      },
    );
    expect(ds.cells).toEqual(["ds", 2, 2, 1, 2, 1, "disk=ssd", "AGE", "c", container.image, "app=w"]);
    const sts = await table(
      `${apps}/statefulsets`,
      { metadata: { name: "s" }, spec: { replicas: 2, serviceName: "s", selector, template: template("w") } },
      { replicas: 2, readyReplicas: 1, availableReplicas: 1 },
    );
    expect(sts.cells).toEqual(["s", "1/2", "AGE", "c", container.image]);
  });

  it("jobs and cron jobs", async () => {
    const batch = `/apis/batch/v1/namespaces/${ns}`;
    const jobTemplate = { spec: { restartPolicy: "Never", containers: [container] } };
    const job = await table(`${batch}/jobs`, {
      metadata: { name: "j" },
      spec: { completions: 3, template: jobTemplate },
    });
    expect(job.cols.map((c: unknown[]) => c[0])).toEqual([
      "Name",
      "Status",
      "Completions",
      "Duration",
      "Age",
      "Containers",
      "Images",
      "Selector",
    ]);
    expect(job.cells.slice(0, 4)).toEqual(["j", "Running", "0/3", ""]);
    expect(job.cells[7]).toMatch(/^batch\.kubernetes\.io\/controller-uid=/);
    const cj = await table(`${batch}/cronjobs`, {
      metadata: { name: "cj" },
      spec: { schedule: "*/5 * * * *", jobTemplate: { spec: { template: jobTemplate } } },
    });
    expect(cj.cells).toEqual([
      "cj",
      "*/5 * * * *",
      "<none>",
      "False",
      0,
      "<none>",
      "AGE",
      "c",
      container.image,
      "<none>",
    ]);
  });

  it("services, config maps, secrets, service accounts, namespaces, nodes, leases", async () => {
    const core = `/api/v1/namespaces/${ns}`;
    // The server allocates the cluster IP and node port: fixed ones may be taken already on a shared
    // cluster, where other suites' Services get addresses from the same ranges.
    const svc = await table(`${core}/services`, {
      metadata: { name: "s" },
      spec: { type: "NodePort", selector: { app: "w" }, ports: [{ port: 80 }] },
    });
    const { clusterIP, ports } = svc.object.spec as { clusterIP: string; ports: { nodePort: number }[] };
    expect(clusterIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(ports[0]?.nodePort).toBeGreaterThanOrEqual(30000);
    expect(svc.cells).toEqual([
      "s",
      "NodePort",
      clusterIP,
      "<none>",
      `80:${ports[0]?.nodePort}/TCP`,
      "AGE",
      "app=w",
    ]);
    const cm = await table(`${core}/configmaps`, { metadata: { name: "cm" }, data: { a: "1", b: "2" } });
    expect(cm.cells).toEqual(["cm", 2, "AGE"]);
    const secret = await table(`${core}/secrets`, {
      metadata: { name: "sec" },
      type: "Opaque",
      data: { a: "MQ==" },
    });
    expect(secret.cells).toEqual(["sec", "Opaque", 1, "AGE"]);
    const sa = await table(`${core}/serviceaccounts`, { metadata: { name: "sa" } });
    expect(sa.cells).toEqual(["sa", "AGE"]);
    const space = await table("/api/v1/namespaces", { metadata: { name: uniqueName("tbl") } });
    expect(space.cells.slice(1)).toEqual(["Active", "AGE"]);
    const node = await table(
      "/api/v1/nodes",
      { metadata: { name: uniqueName("node"), labels: { "node-role.kubernetes.io/worker": "" } } },
      {
        conditions: [{ type: "Ready", status: "True", reason: "KubeletReady", message: "ok" }],
        addresses: [{ type: "InternalIP", address: "192.168.0.9" }],
        nodeInfo: {
          machineID: "",
          systemUUID: "",
          bootID: "",
          kernelVersion: "6.1",
          osImage: "Linux",
          containerRuntimeVersion: "fake://1",
          kubeletVersion: "v1.37.1",
          kubeProxyVersion: "",
          operatingSystem: "linux",
          architecture: "amd64",
        },
      },
    );
    expect(node.cells.slice(1)).toEqual([
      "Ready",
      "worker",
      "AGE",
      "v1.37.1",
      "192.168.0.9",
      "<none>",
      "Linux",
      "6.1 (amd64)",
      "fake://1",
    ]);
    await t.call("DELETE", `/api/v1/nodes/${node.cells[0]}`);
    const lease = await table(`/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`, {
      metadata: { name: "l" },
      spec: { holderIdentity: "me" },
    });
    expect(lease.cells).toEqual(["l", "me", "AGE"]);
  });

  it("role bindings, priority classes, network policies, runtime classes", async () => {
    const rb = await table(`/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`, {
      metadata: { name: "rb" },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "view" },
      subjects: [
        { kind: "User", apiGroup: "rbac.authorization.k8s.io", name: "alice" },
        { kind: "User", apiGroup: "rbac.authorization.k8s.io", name: "bob" },
        { kind: "Group", apiGroup: "rbac.authorization.k8s.io", name: "devs" },
        { kind: "ServiceAccount", name: "builder", namespace: ns },
      ],
    });
    expect(rb.cells).toEqual(["rb", "ClusterRole/view", "AGE", "alice, bob", "devs", `${ns}/builder`]);
    const pcName = uniqueName("pc");
    const pc = await table("/apis/scheduling.k8s.io/v1/priorityclasses", {
      metadata: { name: pcName },
      value: 1000,
    });
    expect(pc.cells).toEqual([pcName, 1000, false, "AGE", "PreemptLowerPriority"]);
    await t.call("DELETE", `/apis/scheduling.k8s.io/v1/priorityclasses/${pcName}`);
    const np = await table(`/apis/networking.k8s.io/v1/namespaces/${ns}/networkpolicies`, {
      metadata: { name: "np" },
      spec: { podSelector: { matchLabels: { app: "w" } } },
    });
    expect(np.cells).toEqual(["np", "app=w", "AGE"]);
    const rcName = uniqueName("rc");
    const rc = await table("/apis/node.k8s.io/v1/runtimeclasses", {
      metadata: { name: rcName },
      handler: "runc",
    });
    expect(rc.cells).toEqual([rcName, "runc", "AGE"]);
    await t.call("DELETE", `/apis/node.k8s.io/v1/runtimeclasses/${rcName}`);
  });

  it("kinds without their own columns print Name and Created At with the metadata docs", async () => {
    const res = await t.call("GET", `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`, {
      accept: TABLE,
    });
    const cols = res.json.columnDefinitions;
    expect(cols.map((c: { name: string }) => c.name)).toEqual(["Name", "Created At"]);
    expect(cols[0].description).toMatch(/name/i);
    expect(cols[1].description).toMatch(/created/);
  });
});
