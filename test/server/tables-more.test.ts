/**
 * Server-side printing of the remaining built-in kinds (events, volumes and storage, networking,
 * quotas, pod templates): columns and cells as kube-apiserver serves them in Tables. Cluster-scoped
 * objects get unique names and are deleted afterwards (the real server is shared by the run).
 */
import { describe, expect, it } from "vitest";
import { columnNames, nowSeconds, readTable, useTableSuite } from "./table-read.js";

const s = useTableSuite("tables-more");
const { table, clusterName } = s;
const names = columnNames;

describe("Tables of events, endpoints, quotas and pod templates", () => {
  it("core events: times since first and last seen, the object, the source, the count; Name is wide", async () => {
    const now = nowSeconds();
    const got = await table(`/api/v1/namespaces/${s.ns}/events`, {
      metadata: { name: "ev" },
      involvedObject: { kind: "Pod", name: "web", namespace: s.ns, fieldPath: "spec.containers{c}" },
      reason: "Pulled",
      message: "  image pulled \n",
      type: "Normal",
      source: { component: "kubelet", host: "n1" },
      count: 3,
      firstTimestamp: now,
      lastTimestamp: now,
    });
    expect(got.cols).toEqual([
      ["Last Seen", "string", 0],
      ["Type", "string", 0],
      ["Reason", "string", 0],
      ["Object", "string", 0],
      ["Subobject", "string", 1],
      ["Source", "string", 1],
      ["Message", "string", 0],
      ["First Seen", "string", 1],
      ["Count", "string", 1],
      ["Name", "string", 1],
    ]);
    expect(got.cells).toEqual([
      "AGE",
      "Normal",
      "Pulled",
      "pod/web",
      "spec.containers{c}",
      "kubelet, n1",
      "image pulled",
      "AGE",
      3,
      "ev",
    ]);
  });

  it("events.k8s.io events: the event time stands in for both times, a single event counts 1", async () => {
    const got = await table(`/apis/events.k8s.io/v1/namespaces/${s.ns}/events`, {
      metadata: { name: "ev2" },
      regarding: { kind: "Deployment", name: "d", namespace: s.ns },
      reason: "Scaled",
      note: "scaled up",
      type: "Warning",
      action: "Scale",
      reportingController: "example.com/ctl",
      reportingInstance: "ctl-1",
      eventTime: new Date().toISOString().replace("Z", "000Z"),
    });
    expect(names(got.cols)).toEqual(
      names((await readTable(s.t, `/api/v1/namespaces/${s.ns}/events/ev`)).cols),
    );
    const cells = ["AGE", "Warning", "Scaled", "deployment/d", "", "example.com/ctl, ctl-1", "scaled up"];
    expect(got.cells).toEqual([...cells, "AGE", 1, "ev2"]);
  });

  it("endpoints: address:port pairs, three at most", async () => {
    const eps = `/api/v1/namespaces/${s.ns}/endpoints`;
    const got = await table(eps, {
      metadata: { name: "ep" },
      subsets: [
        {
          addresses: [{ ip: "10.0.0.1" }, { ip: "10.0.0.2" }],
          ports: [
            { name: "a", port: 80 },
            { name: "b", port: 443 },
          ],
        },
        { addresses: [{ ip: "fd00::1" }], ports: [{ port: 8080 }] },
      ],
    });
    expect(got.cols).toEqual([
      ["Name", "string", 0],
      ["Endpoints", "string", 0],
      ["Age", "string", 0],
    ]);
    expect(got.cells).toEqual(["ep", "10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 2 more...", "AGE"]);
    const v6 = await table(eps, {
      metadata: { name: "ep6" },
      subsets: [
        { addresses: [{ ip: "fd00::1" }], notReadyAddresses: [{ ip: "fd00::2" }], ports: [{ port: 80 }] },
      ],
    });
    expect(v6.cells).toEqual(["ep6", "[fd00::1]:80", "AGE"]);
    expect((await table(eps, { metadata: { name: "none" } })).cells).toEqual(["none", "<none>", "AGE"]);
  });

  it("resource quotas: used/hard per resource, limits apart; pod templates: containers and labels", async () => {
    const rq = await table(
      `/api/v1/namespaces/${s.ns}/resourcequotas`,
      {
        metadata: { name: "rq" },
        spec: { hard: { pods: "10", "requests.cpu": "2", "limits.memory": "1Gi" } },
      },
      {
        hard: {
          pods: "10",
          "requests.cpu": "2",
          "limits.memory": "1Gi",
          cpu: "1",
          "count/deployments.apps": "3",
        },
        used: { pods: "1", "requests.cpu": "500m", cpu: "0" },
      },
    );
    expect(names(rq.cols)).toEqual(["Name", "Request", "Limit", "Age"]);
    expect(rq.cells).toEqual([
      "rq",
      "count/deployments.apps: 0/3, cpu: 0/1, pods: 1/10, requests.cpu: 500m/2",
      "limits.memory: 0/1Gi",
      "AGE",
    ]);
    const pt = await table(`/api/v1/namespaces/${s.ns}/podtemplates`, {
      metadata: { name: "pt" },
      template: {
        metadata: { labels: { b: "2", a: "1" } },
        spec: {
          containers: [
            { name: "c", image: "i1" },
            { name: "d", image: "i2" },
          ],
        },
      },
    });
    expect(pt.cols).toEqual([
      ["Name", "string", 0],
      ["Containers", "string", 0],
      ["Images", "string", 0],
      ["Pod Labels", "string", 0],
    ]);
    expect(pt.cells).toEqual(["pt", "c,d", "i1,i2", "a=1,b=2"]);
  });

  it("limit ranges keep the default columns", async () => {
    const got = await s.t.call("POST", `/api/v1/namespaces/${s.ns}/limitranges`, {
      body: { metadata: { name: "lr" }, spec: { limits: [{ type: "Container", max: { cpu: "1" } }] } },
    });
    expect(got.status, got.text).toBe(201);
    const res = await readTable(s.t, `/api/v1/namespaces/${s.ns}/limitranges/lr`);
    expect(res.cols).toEqual([
      ["Name", "string", 0],
      ["Created At", "date", 0],
    ]);
    expect(res.cells).toEqual(["lr", got.json.metadata.creationTimestamp]);
  });
});

describe("Tables of volumes and storage", () => {
  it("persistent volumes: capacity, access modes in a fixed order, claim, class, reason", async () => {
    const pvs = "/api/v1/persistentvolumes";
    const pv = await table(
      pvs,
      {
        metadata: { name: clusterName(pvs, "pv") },
        spec: {
          capacity: { storage: "5Gi" },
          accessModes: ["ReadWriteMany", "ReadWriteOnce", "ReadOnlyMany"],
          persistentVolumeReclaimPolicy: "Delete",
          storageClassName: "fast",
          claimRef: { namespace: s.ns, name: "c1" },
          hostPath: { path: "/tmp" },
        },
      },
      { phase: "Bound", reason: "Why" },
    );
    expect(pv.cols).toEqual([
      ["Name", "string", 0],
      ["Capacity", "string", 0],
      ["Access Modes", "string", 0],
      ["Reclaim Policy", "string", 0],
      ["Status", "string", 0],
      ["Claim", "string", 0],
      ["StorageClass", "string", 0],
      ["VolumeAttributesClass", "string", 0],
      ["Reason", "string", 0],
      ["Age", "string", 0],
      ["VolumeMode", "string", 1],
    ]);
    expect(pv.cells.slice(1)).toEqual([
      "5Gi",
      "RWO,ROX,RWX",
      "Delete",
      "Bound",
      `${s.ns}/c1`,
      "fast",
      "<unset>",
      "Why",
      "AGE",
      "Filesystem",
    ]);
    const old = await table(pvs, {
      metadata: {
        name: clusterName(pvs, "pv"),
        annotations: { "volume.beta.kubernetes.io/storage-class": "old" },
      },
      spec: {
        capacity: { storage: "1500Mi" },
        accessModes: ["ReadWriteOnce"],
        volumeMode: "Block",
        hostPath: { path: "/tmp" },
      },
    });
    expect(old.cells.slice(1)).toEqual([
      "1500Mi",
      "RWO",
      "Retain",
      "Pending",
      "",
      "old",
      "<unset>",
      "",
      "AGE",
      "Block",
    ]);
  });

  it("persistent volume claims: capacity and access modes only once bound to a volume", async () => {
    const pvcs = `/api/v1/namespaces/${s.ns}/persistentvolumeclaims`;
    const spec = { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } };
    const bound = await table(
      pvcs,
      { metadata: { name: "c1" }, spec: { ...spec, storageClassName: "fast", volumeName: "pv1" } },
      { phase: "Bound", accessModes: ["ReadWriteOnce", "ReadOnlyMany"], capacity: { storage: "5Gi" } },
    );
    expect(names(bound.cols)).toEqual([
      "Name",
      "Status",
      "Volume",
      "Capacity",
      "Access Modes",
      "StorageClass",
      "VolumeAttributesClass",
      "Age",
      "VolumeMode",
    ]);
    expect(bound.cols[8]).toEqual(["VolumeMode", "string", 1]);
    expect(bound.cells).toEqual([
      "c1",
      "Bound",
      "pv1",
      "5Gi",
      "RWO,ROX",
      "fast",
      "<unset>",
      "AGE",
      "Filesystem",
    ]);
    const pending = await table(pvcs, { metadata: { name: "c2" }, spec });
    expect(pending.cells).toEqual(["c2", "Pending", "", "", "", "", "<unset>", "AGE", "Filesystem"]);
  });

  it("storage classes, CSI drivers, CSI nodes, volume attachments, volume attributes classes", async () => {
    const scs = "/apis/storage.k8s.io/v1/storageclasses";
    const scName = clusterName(scs, "sc");
    // (Not marked as the default class: other suites sharing the real server create claims.)
    const sc = await table(scs, { metadata: { name: scName }, provisioner: "p.example.com" });
    expect(names(sc.cols)).toEqual([
      "Name",
      "Provisioner",
      "ReclaimPolicy",
      "VolumeBindingMode",
      "AllowVolumeExpansion",
      "Age",
    ]);
    expect(sc.cells).toEqual([scName, "p.example.com", "Delete", "Immediate", false, "AGE"]);
    const sc2 = await table(scs, {
      metadata: { name: clusterName(scs, "sc") },
      provisioner: "p.example.com",
      reclaimPolicy: "Retain",
      volumeBindingMode: "WaitForFirstConsumer",
      allowVolumeExpansion: true,
    });
    expect(sc2.cells.slice(1)).toEqual(["p.example.com", "Retain", "WaitForFirstConsumer", true, "AGE"]);

    const drivers = "/apis/storage.k8s.io/v1/csidrivers";
    const plain = await table(drivers, { metadata: { name: clusterName(drivers, "csi") }, spec: {} });
    expect(plain.cols).toEqual([
      ["Name", "string", 0],
      ["AttachRequired", "boolean", 0],
      ["PodInfoOnMount", "boolean", 0],
      ["StorageCapacity", "boolean", 0],
      ["TokenRequests", "string", 0],
      ["RequiresRepublish", "boolean", 0],
      ["Modes", "string", 0],
      ["Age", "string", 0],
    ]);
    expect(plain.cells.slice(1)).toEqual([true, false, false, "<unset>", false, "Persistent", "AGE"]);
    const full = await table(drivers, {
      metadata: { name: clusterName(drivers, "csi") },
      spec: {
        attachRequired: false,
        podInfoOnMount: true,
        storageCapacity: true,
        tokenRequests: [{ audience: "a" }, { audience: "b", expirationSeconds: 3600 }],
        requiresRepublish: true,
        volumeLifecycleModes: ["Persistent", "Ephemeral"],
      },
    });
    expect(full.cells.slice(1)).toEqual([false, true, true, "a,b", true, "Persistent,Ephemeral", "AGE"]);

    const csiNodes = "/apis/storage.k8s.io/v1/csinodes";
    const node = await table(csiNodes, {
      metadata: { name: clusterName(csiNodes, "n") },
      spec: { drivers: [{ name: "csi.example.com", nodeID: "n1" }] },
    });
    expect(node.cols).toEqual([
      ["Name", "string", 0],
      ["Drivers", "integer", 0],
      ["Age", "string", 0],
    ]);
    expect(node.cells.slice(1)).toEqual([1, "AGE"]);

    const attachments = "/apis/storage.k8s.io/v1/volumeattachments";
    const va = await table(attachments, {
      metadata: { name: clusterName(attachments, "va") },
      spec: { attacher: "csi.example.com", nodeName: "n1", source: { persistentVolumeName: "pv1" } },
    });
    expect(va.cols).toEqual([
      ["Name", "string", 0],
      ["Attacher", "string", 0],
      ["PV", "string", 0],
      ["Node", "string", 0],
      ["Attached", "boolean", 0],
      ["Age", "string", 0],
    ]);
    expect(va.cells.slice(1)).toEqual(["csi.example.com", "pv1", "n1", false, "AGE"]);

    const vacs = "/apis/storage.k8s.io/v1/volumeattributesclasses";
    const vac = await table(vacs, {
      metadata: { name: clusterName(vacs, "vac") },
      driverName: "d.example.com",
      parameters: { iops: "100" },
    });
    expect(names(vac.cols)).toEqual(["Name", "DriverName", "Age"]);
    expect(vac.cells.slice(1)).toEqual(["d.example.com", "AGE"]);
  });
});
